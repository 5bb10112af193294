/**
 * The one bridge from an editor CancellationToken to the AbortSignal every client takes. A token that
 * is already cancelled gives an aborted signal at once (an event that fired before we listened never
 * fires again). Structural: it needs only the two members a token has, so a test can hand it a fake
 * and this module never loads `vscode`.
 */

/** The part of `vscode.CancellationToken` the bridge reads. */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface TokenSignal {
  readonly signal: AbortSignal;
  /** Stops listening to the token (the signal keeps its state). */
  dispose(): void;
}

/** An AbortSignal that aborts when `token` is (or already was) cancelled; no token: never aborts. */
export function signalFromToken(token: CancellationTokenLike | undefined): TokenSignal {
  const controller = new AbortController();
  if (!token) return { signal: controller.signal, dispose: () => undefined };
  if (token.isCancellationRequested) {
    controller.abort();
    return { signal: controller.signal, dispose: () => undefined };
  }
  const sub = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => sub.dispose() };
}

/** Runs `work` with the token's signal and stops listening to the token when it settles. */
export async function withTokenSignal<T>(token: CancellationTokenLike | undefined, work: (signal: AbortSignal) => PromiseLike<T>): Promise<T> {
  const bridge = signalFromToken(token);
  try {
    return await work(bridge.signal);
  } finally {
    bridge.dispose();
  }
}
