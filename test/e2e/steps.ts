/**
 * For journeys whose steps build on each other: `step(name, fn)` is a `test` that, when it fails, saves a
 * screenshot of the editor as `<prefix>-failed-<name>` (in .e2e-artifacts/) before the failure is reported.
 * Its own file, not the harness: `npm start` and the bench import the harness and need no test runner.
 */
import { test } from 'node:test';
import type { Editor } from './harness';

export function stepWithScreenshot(prefix: string, editor: () => Editor | undefined): (name: string, fn: () => Promise<void>) => void {
  return (name, fn) => {
    test(name, async () => {
      try {
        await fn();
      } catch (e) {
        await editor()?.screenshot(`${prefix}-failed-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}`).catch(() => undefined);
        throw e;
      }
    });
  };
}
