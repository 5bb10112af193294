/** The .gitignore subset: which paths each pattern form matches, and that hostile patterns stay cheap. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gitignoreVerdict, isIgnoredBy, parseGitignore } from '../../../src/core/knowledge/gitignore';

function ignored(patterns: string, path: string, isDir = false): boolean | undefined {
  return gitignoreVerdict(parseGitignore('', patterns), path, isDir);
}

describe('gitignore patterns', () => {
  test('a name without a slash matches at any depth', () => {
    assert.equal(ignored('*.log', 'a/b/c.log'), true);
    assert.equal(ignored('*.log', 'a/b/c.log.md'), undefined);
    assert.equal(ignored('temp', 'x/temp', true), true);
  });

  test('a leading or inner slash anchors to the folder of the .gitignore', () => {
    assert.equal(ignored('/build', 'build', true), true);
    assert.equal(ignored('/build', 'src/build', true), undefined);
    assert.equal(ignored('docs/*.md', 'docs/a.md'), true);
    assert.equal(ignored('docs/*.md', 'docs/sub/a.md'), undefined);
  });

  test('** spans folders; ? and classes match one character', () => {
    assert.equal(ignored('**/gen/*.md', 'a/b/gen/x.md'), true);
    assert.equal(ignored('**/gen/*.md', 'gen/x.md'), true);
    assert.equal(ignored('a/**/z.md', 'a/z.md'), true);
    assert.equal(ignored('a/**/z.md', 'a/b/c/z.md'), true);
    assert.equal(ignored('file?.md', 'file1.md'), true);
    assert.equal(ignored('file?.md', 'file10.md'), undefined);
    assert.equal(ignored('v[0-9].md', 'v7.md'), true);
    assert.equal(ignored('v[!0-9].md', 'v7.md'), undefined);
    assert.equal(ignored('v[!0-9].md', 'vx.md'), true);
  });

  test('trailing slash matches folders only; negation re-includes; the last match wins; comments and escapes', () => {
    assert.equal(ignored('out/', 'out', false), undefined);
    assert.equal(ignored('out/', 'out', true), true);
    assert.equal(ignored('*.md\n!keep.md', 'keep.md'), false);
    assert.equal(ignored('!keep.md\n*.md', 'keep.md'), true);
    assert.equal(ignored('# note.md', 'note.md'), undefined);
    assert.equal(ignored('\\#note.md', '#note.md'), true);
    assert.equal(ignored('\\!bang.md', '!bang.md'), true);
  });

  test('a deeper .gitignore overrides a shallower one', () => {
    const rules = [parseGitignore('docs', '!keep.md'), parseGitignore('', '*.md')];
    assert.equal(isIgnoredBy(rules, 'docs/keep.md', false), false);
    assert.equal(isIgnoredBy(rules, 'other/keep.md', false), true);
  });

  test('a pattern built to make a backtracking matcher explode still gives the right answer', () => {
    const pattern = `${'*a'.repeat(200)}b`;
    const path = 'a'.repeat(1000);
    assert.equal(ignored(pattern, path), undefined);
    assert.equal(ignored(pattern, `${path}b`), true);
    const deep = `${'**/'.repeat(100)}x.md`;
    assert.equal(ignored(deep, `${'d/'.repeat(300)}y.md`), undefined);
    assert.equal(ignored(deep, `${'d/'.repeat(300)}x.md`), true);
  });
});
