import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { altTextEdit, classifySrc, escapeAlt, hasAlt, mediaTypeForPath, surroundingContext } from '../../../src/core/content/altText';
import { findImageRefs, type ImageSyntax } from '../../../src/core/content/imageRefs';

function apply(text: string, syntax: ImageSyntax, alt: string): string {
  const ref = findImageRefs(text, syntax)[0];
  assert.ok(ref, 'fixture has an image');
  const e = altTextEdit(ref, alt);
  return text.slice(0, e.start) + e.newText + text.slice(e.end);
}

describe('alt escaping', () => {
  test('Markdown escapes brackets, backslashes and emphasis markers', () => {
    assert.equal(escapeAlt('a [b] c\\d *e* _f_ `g`', 'markdown'), 'a \\[b\\] c\\\\d \\*e\\* \\_f\\_ \\`g\\`');
  });

  test('newlines and runs of whitespace become one space in every syntax', () => {
    for (const s of ['markdown', 'html', 'jsx'] as const) {
      const out = escapeAlt('  line one\r\nline\ttwo\n\n', s);
      assert.ok(!/[\r\n\t]/.test(out), `${s}: ${out}`);
      assert.ok(out.includes('line one line two'), `${s}: ${out}`);
    }
  });

  test('HTML escapes &, <, > and the quote in use', () => {
    assert.equal(escapeAlt('Tom & "Jerry" <3 \'x\'', 'html', '"'), 'Tom &amp; &quot;Jerry&quot; &lt;3 \'x\'');
    assert.equal(escapeAlt('Tom & "Jerry" <3 \'x\'', 'html', "'"), 'Tom &amp; "Jerry" &lt;3 &#39;x&#39;');
  });

  test('JSX uses a string attribute when safe and a JSON expression otherwise', () => {
    assert.equal(escapeAlt('A red bike', 'jsx'), '"A red bike"');
    assert.equal(escapeAlt('The "Blue" {set} & co', 'jsx'), '{"The \\"Blue\\" {set} & co"}');
  });
});

describe('the edit that fills or adds alt', () => {
  test('Markdown: fills the empty brackets and the result reads back', () => {
    const out = apply('Look: ![](cat.png "t")!', 'markdown', 'A [striped] cat');
    assert.equal(out, 'Look: ![A \\[striped\\] cat](cat.png "t")!');
    const ref = findImageRefs(out, 'markdown')[0];
    assert.equal(ref.alt.kind === 'present' && ref.alt.text, 'A [striped] cat');
  });

  test('HTML: adds alt right after src when missing', () => {
    assert.equal(apply('<img src="a.png" width="2">', 'html', 'Say "hi"'), '<img src="a.png" alt="Say &quot;hi&quot;" width="2">');
  });

  test('HTML: fills an empty alt keeping its single quotes', () => {
    assert.equal(apply("<img alt='' src='a.png'>", 'html', "It's"), "<img alt='It&#39;s' src='a.png'>");
  });

  test('HTML: a bare alt attribute gets a value', () => {
    assert.equal(apply('<img alt src="a.png">', 'html', 'x'), '<img alt="x" src="a.png">');
  });

  test('PHP: the edit lands after a dynamic src without touching the PHP block', () => {
    const php = '<img src="<?php echo $u; ?>">';
    assert.equal(apply(php, 'html', 'Logo'), '<img src="<?php echo $u; ?>" alt="Logo">');
  });

  test('JSX: adds or replaces the attribute, and the result reads back', () => {
    assert.equal(apply('<img src={hero} />', 'jsx', 'Hero'), '<img src={hero} alt="Hero" />');
    const out = apply('<img alt={""} src="/a.png" />', 'jsx', 'A "quoted" word');
    assert.equal(out, '<img alt={"A \\"quoted\\" word"} src="/a.png" />');
    const ref = findImageRefs(out, 'jsx')[0];
    assert.equal(ref.alt.kind === 'present' && ref.alt.text, 'A "quoted" word');
  });

  test('hasAlt distinguishes filled, empty and dynamic alts', () => {
    const [filled, empty, dynamic, missing] = findImageRefs('<img alt="x"><img alt=""><img alt="<?= $a ?>"><img src="a">', 'html');
    assert.deepEqual([hasAlt(filled), hasAlt(empty), hasAlt(dynamic), hasAlt(missing)], [true, false, true, false]);
  });
});

describe('image source classification', () => {
  test('remote, protocol-relative, data, relative and root-relative sources', () => {
    assert.deepEqual(classifySrc('https://cdn.test/a.png'), { kind: 'remote', url: 'https://cdn.test/a.png' });
    assert.deepEqual(classifySrc('//cdn.test/a.png'), { kind: 'remote', url: 'https://cdn.test/a.png' });
    assert.deepEqual(classifySrc('data:image/png;base64,iVBO Rw=='), { kind: 'inline', image: { kind: 'bytes', mediaType: 'image/png', base64: 'iVBORw==' } });
    assert.deepEqual(classifySrc('img/my%20cat.png?v=2#x'), { kind: 'local', path: 'img/my cat.png', rootRelative: false });
    assert.deepEqual(classifySrc('/static/a.png'), { kind: 'local', path: 'static/a.png', rootRelative: true });
  });

  test('dynamic, empty and non-image sources are refused with a reason', () => {
    assert.equal(classifySrc(undefined).kind, 'unsupported');
    assert.equal(classifySrc('  ').kind, 'unsupported');
    assert.equal(classifySrc('data:text/html,<b>x</b>').kind, 'unsupported');
    assert.equal(classifySrc('ftp://x/a.png').kind, 'unsupported');
  });

  test('media types come from the extension', () => {
    assert.equal(mediaTypeForPath('a/B.JPG'), 'image/jpeg');
    assert.equal(mediaTypeForPath('x.svg'), 'image/svg+xml');
    assert.equal(mediaTypeForPath('x.txt'), undefined);
  });

  test('surrounding context strips markup and keeps nearby words', () => {
    const text = '# Our <b>trip</b>\n\n![](a.png)\n\nThe view from the top.';
    const ctx = surroundingContext(text, findImageRefs(text, 'markdown')[0]);
    assert.ok(ctx.includes('Our trip'), ctx);
    assert.ok(ctx.includes('The view from the top.'), ctx);
    assert.ok(!ctx.includes('<b>'), ctx);
  });
});
