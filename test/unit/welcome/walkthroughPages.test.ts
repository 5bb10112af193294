/**
 * [#41.3] The walkthrough's pages (media/walkthrough/**.md, every language): VS Code rewrites every
 * relative link of a page, even one inside a code block, into a long resource URL that shows a local
 * path. An example shown as code must not contain a relative link.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const DIR = join(ROOT, 'media', 'walkthrough');

function pages(dir = DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? pages(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));
}

/** The code of a page: fenced blocks and inline code spans. */
export function codeOf(markdown: string): string[] {
  const out: string[] = [];
  const rest = markdown.replace(/^(```|~~~)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm, (_m, _fence, body: string) => {
    out.push(body);
    return '';
  });
  for (const m of rest.matchAll(/(`+)([^`]+?)\1/g)) out.push(m[2]);
  return out;
}

/** Relative targets of Markdown links/images and src/href attributes in a piece of text. */
export function relativeLinks(text: string): string[] {
  const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]*)/g), ...text.matchAll(/\b(?:src|href)\s*=\s*["']?([^"'\s>]*)/gi)].map((m) => m[1]);
  return targets.filter((t) => t !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'));
}

describe('[#41.3] walkthrough pages', () => {
  test('[#41.3] the finder sees a relative link in a fenced block and in a code span, not an absolute one', () => {
    assert.deepEqual(codeOf('a\n```markdown\n![](images/x.jpg)\n```\nb `<img src="y.png">` c').flatMap(relativeLinks), ['images/x.jpg', 'y.png']);
    assert.deepEqual(relativeLinks('![](https://example.com/x.jpg) <a href="command:x">'), []);
  });

  test('[#41.3] no page (in any language) has a relative link inside code', () => {
    const all = pages();
    assert.ok(all.length >= 24, `the English, Spanish and German pages (${all.length})`);
    for (const p of all) {
      const bad = codeOf(readFileSync(p, 'utf8')).flatMap(relativeLinks);
      assert.deepEqual(bad, [], `${relative(ROOT, p)}: a relative link inside code is rewritten into a local resource URL; use an absolute example URL`);
    }
  });
});
