import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eolOf, imageMarkup, relativePath, relocateRange, replaceRangeEdit, requestText, taxonomyAsText } from '../../../src/core/content/placement';
import { findImageRefs } from '../../../src/core/content/imageRefs';

function apply(text: string, e: { start: number; end: number; newText: string }): string {
  return text.slice(0, e.start) + e.newText + text.slice(e.end);
}

describe('what gets sent', () => {
  test('a selection with text wins; an empty or blank one means the whole document', () => {
    const doc = 'One.\nTwo.\n';
    assert.deepEqual(requestText(doc, { start: 5, end: 9 }, false), { text: 'Two.', range: { start: 5, end: 9 }, wholeDocument: false });
    assert.equal(requestText(doc, { start: 4, end: 5 }, false).wholeDocument, true);
    assert.equal(requestText(doc, undefined, false).text, doc);
  });

  test('the whole Markdown document is sent without its front matter (CRLF too)', () => {
    const doc = '---\r\ntitle: T\r\n---\r\nBody text.\r\n';
    const r = requestText(doc, undefined, true);
    assert.equal(r.text, 'Body text.\r\n');
    assert.equal(r.range.start, doc.indexOf('Body'));
  });
});

describe('Replace Selection', () => {
  test('uses the document EOL', () => {
    assert.equal(eolOf('x\r\ny'), '\r\n');
    assert.equal(apply('x\r\ny', replaceRangeEdit({ start: 0, end: 1 }, 'a\nb', '\r\n')), 'a\r\nb\r\ny');
  });
});

describe('finding the summarised text again after edits', () => {
  test('unchanged, moved by an edit above, nearest of several, and gone', () => {
    assert.deepEqual(relocateRange('aa XY bb', 'XY', { start: 3, end: 5 }), { start: 3, end: 5 });
    assert.deepEqual(relocateRange('new line\naa XY bb', 'XY', { start: 3, end: 5 }), { start: 12, end: 14 });
    assert.deepEqual(relocateRange('XY .......... XY', 'XY', { start: 12, end: 14 }), { start: 14, end: 16 });
    assert.equal(relocateRange('aa bb', 'XY', { start: 3, end: 5 }), undefined);
  });
});

describe('markup and text for other places', () => {
  test('image markup per syntax escapes the alt and reads back', () => {
    const md = imageMarkup('markdown', 'img/my cat.png', 'A [small] cat');
    assert.equal(md, '![A \\[small\\] cat](<img/my cat.png>)');
    assert.equal(findImageRefs(md, 'markdown')[0].src, 'img/my cat.png');
    assert.equal(imageMarkup('html', 'a&b.png', 'Say "hi"'), '<img src="a&amp;b.png" alt="Say &quot;hi&quot;">');
    assert.equal(imageMarkup('jsx', '/a.png', 'Hi'), '<img src="/a.png" alt="Hi" />');
  });

  test('relative paths between files', () => {
    assert.equal(relativePath('/w/posts/a.md', '/w/posts/img/x.png'), 'img/x.png');
    assert.equal(relativePath('/w/posts/a.md', '/w/static/x.png'), '../static/x.png');
  });

  test('taxonomy as text', () => {
    assert.equal(taxonomyAsText({ categories: ['A', 'B'], tags: ['c'] }), 'Categories: A, B\nTags: c');
    assert.equal(taxonomyAsText({ categories: [], tags: ['c'] }), 'Tags: c');
  });
});
