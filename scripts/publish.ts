/**
 * Publishes a tagged release to the Visual Studio Marketplace and to Open VSX, from one VSIX.
 *
 *   npm run release -- --tag v0.2.0      # in CI, on a pushed tag; needs VSCE_PAT and OVSX_PAT
 *   npm run release:dry                  # everything but the upload (run by `npm test`)
 *
 * Versions (docs/CONTRIBUTING.md, "Releasing"): the marketplaces take only major.minor.patch, so a
 * pre-release is told apart by its minor number, as VS Code's documentation recommends: an ODD minor
 * (0.1.x, 0.3.x) is a pre-release, published with --pre-release to both registries; an EVEN minor is a
 * release. The tag is `v` + package.json's version, and CHANGELOG.md has a dated section for it.
 *
 * The dry run packages for real (production build, no vsce warning allowed, only the files users need)
 * and prints the two upload commands with the names of the tokens they read; it never reads a token.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

export interface UploadStep {
  registry: 'Visual Studio Marketplace' | 'Open VSX';
  /** The token's environment variable; its value is never printed or passed on the command line. */
  tokenEnv: 'VSCE_PAT' | 'OVSX_PAT';
  args: string[];
}

export interface ReleasePlan {
  version: string;
  preRelease: boolean;
  uploads: UploadStep[];
}

const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;

/** The changelog's section for a version: `## [0.2.0] - 2026-11-27` followed by at least one entry. */
export function changelogSection(changelog: string, version: string): string | undefined {
  const lines = changelog.split(/\r?\n/);
  const start = lines.findIndex((l) => l.startsWith(`## [${version}] - `) && /^\d{4}-\d{2}-\d{2}$/.test(l.slice(`## [${version}] - `.length).trim()));
  if (start === -1) return undefined;
  let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  if (end === -1) end = lines.length;
  const body = lines.slice(start + 1, end).filter((l) => l.startsWith('- ') || l.startsWith('* '));
  return body.length ? lines.slice(start, end).join('\n') : undefined;
}

/** What a release of `tag` would do, or why it cannot be released. Pure: no files, no network. */
export function planRelease(input: { tag: string; version: string; changelog: string; vsix: string }): ReleasePlan | { error: string } {
  const m = VERSION.exec(input.version);
  if (!m) return { error: `package.json's version "${input.version}" is not major.minor.patch (the marketplaces take nothing else; pre-releases use an odd minor).` };
  if (input.tag !== `v${input.version}`) return { error: `The tag "${input.tag}" is not v${input.version} (package.json's version).` };
  if (!changelogSection(input.changelog, input.version)) return { error: `CHANGELOG.md has no dated section "## [${input.version}] - YYYY-MM-DD" with entries.` };
  const preRelease = Number(m[2]) % 2 === 1;
  const pre = preRelease ? ['--pre-release'] : [];
  return {
    version: input.version,
    preRelease,
    uploads: [
      { registry: 'Visual Studio Marketplace', tokenEnv: 'VSCE_PAT', args: ['publish', '--packagePath', input.vsix, ...pre] },
      { registry: 'Open VSX', tokenEnv: 'OVSX_PAT', args: ['publish', input.vsix, ...pre] },
    ],
  };
}

/** Files a user's VSIX may hold; anything else (sources, tests, maps, docs) is a packaging mistake. */
export const SHIPPED = [/^package\.json$/, /^package\.nls(?:\.[a-z]{2}(?:-[a-z]{2})?)?\.json$/, /^l10n\/bundle\.l10n(?:\.[a-z]{2}(?:-[a-z]{2})?)?\.json$/, /^README\.md$/, /^CHANGELOG\.md$/, /^LICENSE$/, /^dist\/[^/]+\.mjs$/, /^dist\/webview\/(?:[^/]+\/)*[^/]+\.(?:js|css)$/, /^dist\/webview\/l10n-keys\.json$/, /^media\/.+$/, /^skills\/[a-z0-9-]+\/SKILL\.md$/];

export function unexpectedFiles(listing: readonly string[]): string[] {
  return listing.filter((f) => !SHIPPED.some((re) => re.test(f)));
}

function argValue(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
}

async function main(argv: readonly string[]): Promise<void> {
  const dryRun = argv.includes('--dry-run');
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const tag = argValue(argv, '--tag') ?? process.env.GITHUB_REF_NAME ?? (dryRun ? `v${version}` : undefined);
  if (!tag) throw new Error('Give the tag to release: --tag v' + version);
  const out = mkdtempSync(join(tmpdir(), 'ai-gateway-release-'));
  try {
    const vsix = join(out, `ai-gateway-vscode-${version}.vsix`);
    const plan = planRelease({ tag, version, changelog: readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'), vsix });
    if ('error' in plan) throw new Error(plan.error);
    const { packageExtension, VSCE } = await import('./package.mjs');
    packageExtension({ quiet: true, preRelease: plan.preRelease, out: vsix });
    const ls = spawnSync(process.execPath, [VSCE, 'ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' });
    if (ls.status !== 0) throw new Error(`vsce ls failed: ${ls.stderr}`);
    const stray = unexpectedFiles(ls.stdout.split(/\r?\n/).map((l) => l.trim()).filter(Boolean));
    if (stray.length) throw new Error(`The VSIX would ship files users do not need: ${stray.join(', ')} (see .vscodeignore).`);
    console.log(`Release ${tag}: ${plan.preRelease ? 'pre-release (odd minor)' : 'release (even minor)'}, VSIX packaged without warnings.`);
    const bin = { VSCE_PAT: VSCE, OVSX_PAT: join(ROOT, 'node_modules', 'ovsx', 'lib', 'ovsx') };
    for (const step of plan.uploads) {
      console.log(`${dryRun ? 'Would publish' : 'Publishing'} to ${step.registry}: ${step.tokenEnv === 'VSCE_PAT' ? 'vsce' : 'ovsx'} ${step.args.join(' ')} (token from $${step.tokenEnv})`);
      if (dryRun) continue;
      if (!process.env[step.tokenEnv]) throw new Error(`$${step.tokenEnv} is not set: nothing was published to ${step.registry}.`);
      // Both tools read their token from this environment variable, so it never appears in a process list.
      const r = spawnSync(process.execPath, [bin[step.tokenEnv], ...step.args], { cwd: ROOT, stdio: 'inherit' });
      if (r.status !== 0) throw new Error(`Publishing to ${step.registry} failed (exit ${r.status}).`);
    }
    if (dryRun) console.log('Dry run: nothing was uploaded.');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
