/**
 * The text Read Aloud sends: front matter, code and markup removed, prose kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { speechTextFrom } from '../../../src/core/media/mediaText';

test('markdown: front matter, fences, headings, lists, links, images, emphasis and tables are reduced to prose', () => {
  const md = [
    '---',
    'title: "Rome"',
    'tags: [travel]',
    '---',
    '# A week in **Rome**',
    '',
    'We walked to the [Pantheon](https://x.test/p) and saw ![the dome](dome.png).',
    '',
    '```js',
    'console.log("not read");',
    '```',
    '',
    '- First *item*',
    '2. Second `code` item',
    '> Quoted ~~text~~',
    '',
    '| a | b |',
    '|---|:-:|',
    '| c | d |',
    '',
    '***',
    'Tom &amp; Jerry <em>laugh</em>.',
  ].join('\n');
  assert.equal(
    speechTextFrom(md, 'markdown'),
    ['A week in Rome', 'We walked to the Pantheon and saw the dome.', 'First item Second code item Quoted text', 'a b c d', 'Tom & Jerry laugh.'].join('\n\n'),
  );
});

test('html and php templates: scripts, styles, comments and php are dropped, entities decoded, blocks split', () => {
  const html = '<style>p{color:red}</style><h1>Title</h1><!-- hidden --><p>One &lt;two&gt; &#8212; three&nbsp;four</p><?php echo $secret; ?><script>alert("x")</script><p>Last <a href="#">link</a>.</p>';
  assert.equal(speechTextFrom(html, 'html'), 'Title\n\nOne <two> — three four\n\nLast link.');
});

test('plain text is only normalised; an all-markup selection is empty', () => {
  assert.equal(speechTextFrom('  Hello   world.\n\n\n  Bye \t now ', 'plaintext'), 'Hello world.\n\nBye now');
  assert.equal(speechTextFrom('```\ncode only\n```', 'markdown'), '');
  assert.equal(speechTextFrom('<script>x</script>', 'html'), '');
});

test('unclosed spans drop to the end rather than leaking code; hostile input is handled in one pass', () => {
  assert.equal(speechTextFrom('Before <script>var a = 1;', 'html'), 'Before');
  assert.equal(speechTextFrom('Before\n```\nnever closed', 'markdown'), 'Before');
  // Many openers without closers: each scan stops at the next marker, so this stays linear.
  const hostile = '<script'.repeat(20_000) + '*a'.repeat(50_000) + '[x]('.repeat(20_000);
  assert.equal(typeof speechTextFrom(hostile, 'markdown'), 'string');
  assert.equal(speechTextFrom('*a'.repeat(50_000), 'markdown').length > 0, true);
});
