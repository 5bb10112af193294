import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marketplaceReadme } from '../../../scripts/marketplaceReadme.mjs';
import { changelogSection, planRelease, unexpectedFiles } from '../../../scripts/publish';

const ROOT = join(__dirname, '..', '..', '..');
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');

describe('[#30.5] the marketplace page is the README without its repository-only parts', () => {
  test('[#30.5] blocks between the markers go, with their line break, in LF and CRLF text', () => {
    const lf = 'A\n<!-- repo-only -->\nnpm start\n<!-- /repo-only -->\nB\n';
    assert.equal(marketplaceReadme(lf), 'A\nB\n');
    assert.equal(marketplaceReadme(lf.replace(/\n/g, '\r\n')), 'A\r\nB\r\n');
    assert.equal(marketplaceReadme('no markers'), 'no markers');
  });

  test('[#30.5] an unbalanced or nested marker is an error, not a page that leaks or loses a part', () => {
    assert.throws(() => marketplaceReadme('A <!-- repo-only --> B'), /without its/);
    assert.throws(() => marketplaceReadme('A <!-- /repo-only --> B'), /without <!-- repo-only -->/);
    assert.throws(() => marketplaceReadme('<!-- repo-only --> <!-- repo-only --> <!-- /repo-only -->'), /inside another/);
  });

  test('[#30.5] the real README: no set-up for contributors, in-page links resolve, every image is in the repository', () => {
    const page = marketplaceReadme(read('README.md'));
    assert.ok(!page.includes('repo-only'));
    assert.ok(!/npm (install|test|run)\b/.test(page), 'no npm commands for contributors');
    assert.ok(!/docs\/(CONTRIBUTING|PERFORMANCE|ARCHITECTURE)\.md/.test(page), 'no contributor documents');
    assert.ok(page.includes('## Security') && page.includes('## Settings') && page.includes('## Chat'), 'the product sections stay');
    const anchors = new Set([...page.matchAll(/^#+ (.+)$/gm)].map((m) => m[1].toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));
    for (const [, anchor] of page.matchAll(/\]\(#([^)]+)\)/g)) assert.ok(anchors.has(anchor), `#${anchor} is a heading of the page`);
    const prose = page.replace(/`[^`\n]*`/g, ''); // code spans show Markdown, they do not link
    const images = [...prose.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
    assert.ok(images.length >= 10, 'the screenshots stay');
    for (const src of images) {
      assert.ok(!/^https?:/.test(src), `${src} is a repository path (vsce makes it absolute)`);
      assert.ok(existsSync(join(ROOT, src)), `${src} exists in the repository`);
    }
  });
});

describe('[#30.5] releases', () => {
  const changelog = ['# Changelog', '', '## [Unreleased]', '', '## [0.3.0] - 2026-12-01', '', '### Added', '', '- A thing.', '', '## [0.2.0] - 2026-11-30', '', '## [0.1.0] - 2026-11-27', '- First.'].join('\n');
  const vsix = '/tmp/x.vsix';

  test('[#30.5] an odd minor is a pre-release on both registries, an even minor a release; tokens only by name', () => {
    const pre = planRelease({ tag: 'v0.3.0', version: '0.3.0', changelog, vsix });
    assert.ok(!('error' in pre));
    assert.equal(pre.preRelease, true);
    assert.deepEqual(pre.uploads.map((u) => [u.registry, u.tokenEnv, u.args]), [
      ['Visual Studio Marketplace', 'VSCE_PAT', ['publish', '--packagePath', vsix, '--pre-release']],
      ['Open VSX', 'OVSX_PAT', ['publish', vsix, '--pre-release']],
    ]);
    const release = planRelease({ tag: 'v0.4.0', version: '0.4.0', changelog: `${changelog}\n## [0.4.0] - 2026-12-02\n- B.`, vsix });
    assert.ok(!('error' in release));
    assert.equal(release.preRelease, false);
    assert.deepEqual(release.uploads.map((u) => u.args.includes('--pre-release')), [false, false]);
  });

  test('[#30.5] a release is refused with the reason: tag and version differ, a semver suffix, no dated section, an empty section', () => {
    const error = (tag: string, version: string) => {
      const p = planRelease({ tag, version, changelog, vsix });
      return 'error' in p ? p.error : '';
    };
    assert.match(error('v0.3.1', '0.3.0'), /not v0\.3\.0/);
    assert.match(error('v0.3.0-beta.1', '0.3.0-beta.1'), /not major\.minor\.patch/);
    assert.match(error('v0.5.0', '0.5.0'), /no dated section/);
    assert.match(error('v0.2.0', '0.2.0'), /no dated section/, 'a section without entries is not a release note');
    assert.equal(changelogSection(changelog, '0.1.0'), '## [0.1.0] - 2026-11-27\n- First.');
  });

  test('[#30.5] the repository itself: CHANGELOG.md has a dated section for package.json\'s version, and Unreleased on top', () => {
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    assert.ok(changelogSection(read('CHANGELOG.md'), version), `a section for ${version}`);
    assert.match(read('CHANGELOG.md'), /^# Changelog[\s\S]*?\n## \[Unreleased\]\n/);
  });

  test('[#30.5] only what users need ships: sources, maps, tests and docs are named as mistakes', () => {
    assert.deepEqual(unexpectedFiles(['package.json', 'package.nls.json', 'package.nls.es.json', 'package.nls.de.json', 'l10n/bundle.l10n.json', 'l10n/bundle.l10n.de.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'dist/extension.mjs', 'dist/chunk-AB12.mjs', 'dist/webview/chat.js', 'dist/webview/chunks/md-X.js', 'dist/webview/chat.css', 'media/icon.png']), []);
    assert.deepEqual(unexpectedFiles(['src/extension.ts', 'dist/extension.mjs.map', 'test/unit/a.test.ts', 'docs/RULES.md', '.vscodeignore']), ['src/extension.ts', 'dist/extension.mjs.map', 'test/unit/a.test.ts', 'docs/RULES.md', '.vscodeignore']);
  });
});
