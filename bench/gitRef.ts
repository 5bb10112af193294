/**
 * Another version of our code for the side-by-side benches (streamSideBySide.ts, renderSideBySide.ts):
 * the given top-level folders at a git ref, extracted to a temp directory next to a link to our
 * node_modules, so that it imports and bundles like the working tree. The caller removes the directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

export function checkoutAtRef(ref: string, folders: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aigw-at-ref-'));
  const tar = execFileSync('git', ['archive', ref, ...folders], { cwd: ROOT, maxBuffer: 256 * 2 ** 20 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}
