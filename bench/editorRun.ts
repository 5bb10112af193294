/**
 * What the benchmarks that drive the real editor (bench/firstPaint.ts, bench/chatOpen.ts) share: the
 * VSIX they install, the editor logs they keep, and how they end.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT, type Editor } from '../test/e2e/harness';

/**
 * Packages the extension (unless AI_GATEWAY_E2E_SKIP_PACKAGE=1 and a VSIX exists) and points the harness
 * at a private copy of it, as scripts/test-e2e.mjs does: another packaging run in this shared tree may
 * rewrite dist/ or the VSIX meanwhile.
 */
export async function usePrivateVsix(): Promise<void> {
  const { VSIX_PATH, packageExtension } = await import('../scripts/package.mjs');
  if (process.env.AI_GATEWAY_E2E_SKIP_PACKAGE !== '1' || !existsSync(VSIX_PATH)) packageExtension({ quiet: true });
  const bytes = readFileSync(VSIX_PATH);
  const privateVsix = join(ROOT, '.cache', 'e2e', `ai-gateway-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.vsix`);
  mkdirSync(dirname(privateVsix), { recursive: true });
  writeFileSync(privateVsix, bytes);
  process.env.AI_GATEWAY_E2E_VSIX = privateVsix;
}

/** Copies the editor's logs to `logsCopy` (kept for inspection, git-ignored), then closes the editor. */
export async function keepLogsAndClose(editor: Editor, logsCopy: string): Promise<void> {
  rmSync(logsCopy, { recursive: true, force: true });
  const logs = join(dirname(editor.workspace), 'user-data', 'logs');
  if (existsSync(logs)) cpSync(logs, logsCopy, { recursive: true });
  await editor.close();
}

/** Runs a benchmark's main; a failure prints its stack and exits 1 (bench/run.ts reports it as not measured). */
export function runBench(main: () => Promise<void>): void {
  void main().catch((e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  });
}
