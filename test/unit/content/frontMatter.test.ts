import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findFrontMatter, mergeTaxonomy, newFrontMatter, readTaxonomy, yamlScalar } from '../../../src/core/content/frontMatter';
import { isContentError } from '../../../src/core/content/contentErrors';

function merged(text: string, categories: string[], tags: string[]): string {
  const r = mergeTaxonomy(text, { categories, tags });
  assert.ok(r, 'has front matter');
  if (!r.edit) return text;
  return text.slice(0, r.edit.start) + r.edit.newText + text.slice(r.edit.end);
}

describe('front matter detection', () => {
  test('finds the block between --- lines, and none without an opening line', () => {
    const fm = findFrontMatter('---\ntitle: A\n---\nBody\n');
    assert.equal(fm?.body, 'title: A\n');
    assert.equal(findFrontMatter('Body\n---\nx: 1\n---\n'), undefined);
    assert.equal(findFrontMatter('---\ntitle: never closed\n'), undefined);
  });

  test('reads existing categories and tags from lists and scalars', () => {
    assert.deepEqual(readTaxonomy('---\ncategories: News\ntags: [a, b]\n---\n'), { categories: ['News'], tags: ['a', 'b'] });
  });
});

describe('merging categories and tags', () => {
  test('appends to block lists without duplicates (case-insensitive), keeping comments', () => {
    const text = [
      '---',
      '# Post metadata',
      'title: "Hello" # the title',
      'categories:',
      '  - News # main',
      'tags:',
      '  - travel',
      '  - food',
      'draft: false',
      '---',
      'Body ![](x.png)',
      '',
    ].join('\n');
    const out = merged(text, ['news', 'Guides'], ['Food', 'Rome', 'rome']);
    assert.equal(
      out,
      [
        '---',
        '# Post metadata',
        'title: "Hello" # the title',
        'categories:',
        '  - News # main',
        '  - Guides',
        'tags:',
        '  - travel',
        '  - food',
        '  - Rome',
        'draft: false',
        '---',
        'Body ![](x.png)',
        '',
      ].join('\n'),
    );
  });

  test('fills empty lists: `tags:` with nothing and `categories: []`', () => {
    const text = '---\ntitle: T\ncategories: []\ntags: # none yet\nauthor: me\n---\n';
    assert.equal(merged(text, ['A'], ['b', 'c']), '---\ntitle: T\ncategories: [A]\ntags: # none yet\n  - b\n  - c\nauthor: me\n---\n');
  });

  test('extends a flow list and adds missing keys at the end', () => {
    const text = '---\ntags: [one, two]   # flow\n---\n';
    assert.equal(merged(text, ['Cat'], ['three']), '---\ntags: [one, two, three]   # flow\ncategories:\n  - Cat\n---\n');
  });

  test('keeps CRLF line endings everywhere', () => {
    const text = '---\r\ntitle: T\r\ntags:\r\n  - a\r\n---\r\nBody\r\n';
    const out = merged(text, ['C'], ['b']);
    assert.equal(out, '---\r\ntitle: T\r\ntags:\r\n  - a\r\n  - b\r\ncategories:\r\n  - C\r\n---\r\nBody\r\n');
    assert.ok(!/[^\r]\n/.test(out), 'no bare LF');
  });

  test('follows the existing sequence indentation (compact `- ` at column 0)', () => {
    const text = '---\ncategories:\n- A\n---\n';
    assert.equal(merged(text, ['B'], ['t']), '---\ncategories:\n- A\n- B\ntags:\n- t\n---\n');
  });

  test('a single scalar becomes a flow list keeping its value', () => {
    assert.equal(merged('---\ntags: solo\n---\n', [], ['duo']), '---\ntags: [solo, duo]\n---\n');
  });

  test('terms that need quoting are quoted and read back as the same strings', () => {
    const out = merged('---\ntags: []\n---\n', [], ['C#: tips', 'yes', '2024', 'a, b', 'plain term']);
    assert.deepEqual(readTaxonomy(out).tags, ['C#: tips', 'yes', '2024', 'a, b', 'plain term']);
    assert.equal(yamlScalar('plain term'), 'plain term');
    assert.equal(yamlScalar('true'), '"true"');
  });

  test('blank lines, comments, block scalars, BOM and nested keys stay as they were', () => {
    assert.equal(merged('---\ntags:\n  - a\n\n# about title\ntitle: x\n---\n', [], ['b']), '---\ntags:\n  - a\n  - b\n\n# about title\ntitle: x\n---\n');
    assert.equal(merged('---\ntags:\n  - |\n    block\n---\n', [], ['b']), '---\ntags:\n  - |\n    block\n  - b\n---\n');
    assert.equal(merged('\uFEFF---\ntags: [a]\n---\n', [], ['b']), '\uFEFF---\ntags: [a, b]\n---\n');
    // Only top-level keys count: a nested `tags` is someone else's data.
    assert.equal(merged('---\nmeta:\n  tags: [x]\n---\n', [], ['b']), '---\nmeta:\n  tags: [x]\ntags:\n  - b\n---\n');
  });

  test('a merge that would change other data (an aliased list) is refused, not applied', () => {
    assert.throws(() => mergeTaxonomy('---\ntags: &t [a]\nother: *t\n---\n', { categories: [], tags: ['b'] }), (e: unknown) => isContentError(e) && e.kind === 'front_matter');
  });

  test('nothing to add gives no edit', () => {
    const r = mergeTaxonomy('---\ntags: [a]\n---\n', { categories: [], tags: ['A'] });
    assert.equal(r?.edit, undefined);
  });

  test('invalid YAML and non-list values are refused with a content error', () => {
    assert.throws(() => mergeTaxonomy('---\ntitle: [unclosed\n---\n', { categories: [], tags: ['x'] }), (e: unknown) => isContentError(e) && e.kind === 'front_matter');
    assert.throws(() => mergeTaxonomy('---\ntags:\n  a: 1\n---\n', { categories: [], tags: ['x'] }), (e: unknown) => isContentError(e) && e.kind === 'front_matter');
  });

  test('no front matter gives undefined, and new front matter can be created with the file EOL', () => {
    assert.equal(mergeTaxonomy('# Title\n', { categories: ['a'], tags: [] }), undefined);
    const fm = newFrontMatter({ categories: ['News'], tags: ['x', 'X'] }, '\r\n');
    assert.equal(fm, '---\r\ncategories:\r\n  - News\r\ntags:\r\n  - x\r\n---\r\n');
  });
});
