/**
 * Progress for work that is usually quick (a key check is one small request): a spinner in the status
 * bar at once, and a cancellable progress notification only when the work is still running after
 * `delayMs`. A quick check then adds ONE notification (its answer) instead of two.
 *
 * Why it matters: VS Code shows no toast for the 4th notification added within 800 ms (its toasts' spam
 * protection); the notification goes straight to the notification centre. Add API Key followed by Check
 * API Key made four (two "Checking…" progress notifications and two answers), so the revoked-key error
 * was only behind the bell. A progress notification also stays at least 800 ms, even for 5 ms of work.
 *
 * Structural, like cancellation.ts: the editor calls come in through `ProgressHost`, so a test can hand
 * it fakes and this module never loads `vscode`.
 */
import type { CancellationTokenLike } from './cancellation';

export interface ProgressHost {
  /** Progress without a notification (VS Code: ProgressLocation.Window). */
  window<T>(title: string, task: () => PromiseLike<T>): PromiseLike<T>;
  /** A cancellable progress notification (VS Code: ProgressLocation.Notification, cancellable). */
  notification<T>(title: string, task: (token: CancellationTokenLike) => PromiseLike<T>): PromiseLike<T>;
}

/** How long quick work runs before its progress notification shows. */
export const QUIET_PROGRESS_DELAY_MS = 500;

export interface QuietResult<T> {
  value: T;
  /** The user cancelled from the notification (the signal was aborted). */
  cancelled: boolean;
}

/** Runs `work` with a signal the notification's Cancel aborts; see the file comment. */
export async function withQuietProgress<T>(
  host: ProgressHost,
  title: string,
  work: (signal: AbortSignal) => Promise<T>,
  delayMs = QUIET_PROGRESS_DELAY_MS,
): Promise<QuietResult<T>> {
  const controller = new AbortController();
  const running = work(controller.signal);
  const settled = running.then(
    () => undefined,
    () => undefined,
  );
  void host.window(title, () => settled);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), delayMs);
  });
  try {
    if ((await Promise.race([settled.then(() => 'done' as const), late])) === 'late') {
      await host.notification(title, async (token) => {
        const sub = token.onCancellationRequested(() => controller.abort());
        if (token.isCancellationRequested) controller.abort();
        try {
          await settled;
        } finally {
          sub.dispose();
        }
      });
    }
  } finally {
    clearTimeout(timer);
  }
  const value = await running;
  return { value, cancelled: controller.signal.aborted };
}
