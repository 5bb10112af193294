/**
 * Progress for a key check (src/platform/quietProgress.ts): quick work adds no progress notification
 * (VS Code shows no toast for the 4th notification within 800 ms, so Add API Key + Check API Key hid the
 * revoked-key error behind the bell); slow work gets a cancellable one whose Cancel aborts the work.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withQuietProgress, type ProgressHost } from '../../../src/platform/quietProgress';
import type { CancellationTokenLike } from '../../../src/platform/cancellation';

function fakeHost(): ProgressHost & { shown: string[]; windowed: string[]; cancel: () => void } {
  const listeners = new Set<() => void>();
  const token: CancellationTokenLike & { isCancellationRequested: boolean } = {
    isCancellationRequested: false,
    onCancellationRequested: (l) => {
      listeners.add(l);
      return { dispose: () => listeners.delete(l) };
    },
  };
  const host = {
    shown: [] as string[],
    windowed: [] as string[],
    window: <T>(title: string, task: () => PromiseLike<T>) => {
      host.windowed.push(title);
      return task();
    },
    notification: <T>(title: string, task: (t: CancellationTokenLike) => PromiseLike<T>) => {
      host.shown.push(title);
      return task(token);
    },
    cancel: () => {
      token.isCancellationRequested = true;
      for (const l of [...listeners]) l();
    },
  };
  return host;
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(Object.assign(new Error('aborted'), { reason: 'aborted' }));
    });
  });

describe('quiet progress for quick work', () => {
  test('[G-AUTH-3] a quick check adds no progress notification, only the status bar spinner', async () => {
    const host = fakeHost();
    const result = await withQuietProgress(host, 'Checking API key "old"…', async () => 'invalid', 200);
    assert.deepEqual(result, { value: 'invalid', cancelled: false });
    assert.deepEqual(host.shown, [], 'no notification for work that ended before the delay');
    assert.deepEqual(host.windowed, ['Checking API key "old"…']);
  });

  test('[G-AUTH-3] slow work shows the cancellable notification; Cancel aborts the work and reports it', async () => {
    const host = fakeHost();
    const pending = withQuietProgress(
      host,
      'Checking API key "old"…',
      async (signal) => {
        await sleep(5_000, signal).catch(() => undefined);
        return 'error';
      },
      20,
    );
    while (host.shown.length === 0) await sleep(5);
    assert.deepEqual(host.shown, ['Checking API key "old"…']);
    host.cancel();
    assert.deepEqual(await pending, { value: 'error', cancelled: true });
  });

  test('a failure of the work is the caller\'s to report', async () => {
    await assert.rejects(withQuietProgress(fakeHost(), 't', async () => Promise.reject(new Error('boom')), 50), /boom/);
  });
});
