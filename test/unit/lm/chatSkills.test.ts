/**
 * [#43.2] The skills contributed to VS Code's chat (package.json contributes.chatSkills): each file exists,
 * ships in the VSIX, has the front matter agent mode reads (a `name` equal to its folder, a description),
 * names only tools this extension contributes, and teaches the rules the content commands keep (front
 * matter kept, a diff before any change, the site's own categories, credits asked for first).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import { unexpectedFiles } from '../../../scripts/publish';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  contributes: { chatSkills?: Array<{ path: string }>; languageModelTools: Array<{ name: string; toolReferenceName?: string }> };
};
const skills = manifest.contributes.chatSkills ?? [];
const tools = manifest.contributes.languageModelTools;

function frontMatter(text: string): Record<string, string> {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  assert.ok(m, 'the skill starts with front matter');
  return Object.fromEntries(
    m[1].split(/\r?\n/).map((line) => {
      const i = line.indexOf(':');
      return [line.slice(0, i).trim(), line.slice(i + 1).trim()];
    }),
  );
}

test('[#43.2] a house-style and a publishing skill are contributed, each a SKILL.md inside the repository', () => {
  assert.deepEqual(skills.map((s) => basename(dirname(s.path))).sort(), ['house-style', 'publishing']);
  for (const s of skills) {
    assert.equal(basename(s.path), 'SKILL.md');
    assert.ok(!normalize(s.path).startsWith('..'), s.path);
    assert.ok(existsSync(s.path), `${s.path} exists`);
  }
});

test('[#43.2] each skill has a name equal to its folder (lowercase words and hyphens) and a description of at most 1,024 characters', () => {
  for (const s of skills) {
    const fm = frontMatter(readFileSync(s.path, 'utf8'));
    assert.equal(fm.name, basename(dirname(s.path)));
    assert.match(fm.name, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    assert.ok(fm.description && fm.description.length > 40 && fm.description.length <= 1024, `${s.path}: description`);
  }
});

test('[#43.2] the skills name only tools this extension contributes, by tool name and by #reference', () => {
  const names = new Set(tools.map((t) => t.name));
  const refs = new Set(tools.map((t) => t.toolReferenceName).filter((r): r is string => !!r));
  for (const s of skills) {
    const text = readFileSync(s.path, 'utf8');
    for (const [name] of text.matchAll(/\baiGateway_\w+/g)) assert.ok(names.has(name), `${s.path} names ${name}, which is not contributed`);
    for (const [, ref] of text.matchAll(/`#(\w+)`/g)) assert.ok(refs.has(ref), `${s.path} references #${ref}, which is no tool's reference name`);
  }
  const publishing = readFileSync(join('skills', 'publishing', 'SKILL.md'), 'utf8');
  for (const t of ['aiGateway_altText', 'aiGateway_summarize', 'aiGateway_suggestTaxonomy', 'aiGateway_spendToday']) assert.ok(publishing.includes(t), `publishing uses ${t}`);
});

test('[#43.2] the skills keep the commands\' rules: front matter kept, a diff before any change, the site\'s own categories, the cost asked first', () => {
  const all = skills.map((s) => readFileSync(s.path, 'utf8')).join('\n');
  assert.match(all, /Never rewrite, reorder or drop the front matter/);
  assert.match(all, /as a diff the user accepts/);
  assert.match(all, /never invent a category the site does not have/);
  assert.match(all, /asks the user first with its cost/);
  assert.match(all, /never a file outside the workspace/);
});

test('[#43.2] the skill files ship in the VSIX (.vscodeignore lets them through)', () => {
  const ignore = readFileSync('.vscodeignore', 'utf8').split(/\r?\n/);
  assert.ok(ignore.includes('!skills/*/SKILL.md'));
  assert.deepEqual(unexpectedFiles(skills.map((s) => normalize(s.path))), [], 'the release check takes them as shipped files');
  assert.deepEqual(unexpectedFiles(['skills/publishing/notes.md']), ['skills/publishing/notes.md'], 'but nothing else from the folder');
});
