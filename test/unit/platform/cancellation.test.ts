/**
 * The one CancellationToken → AbortSignal bridge (src/platform/cancellation.ts), with a fake token:
 * cancelling aborts, an already-cancelled token gives an aborted signal, dispose stops listening.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signalFromToken, withTokenSignal, type CancellationTokenLike } from '../../../src/platform/cancellation';

class FakeToken implements CancellationTokenLike {
  isCancellationRequested = false;
  readonly listeners = new Set<() => void>();
  onCancellationRequested(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
  cancel(): void {
    // Like VS Code's token: the event fires once, when cancellation is requested.
    if (this.isCancellationRequested) return;
    this.isCancellationRequested = true;
    for (const l of [...this.listeners]) l();
  }
}

describe('signalFromToken', () => {
  test('the signal aborts when the token is cancelled', () => {
    const token = new FakeToken();
    const { signal } = signalFromToken(token);
    assert.equal(signal.aborted, false);
    token.cancel();
    assert.equal(signal.aborted, true);
  });

  test('a token cancelled before the bridge gives an aborted signal at once', () => {
    const token = new FakeToken();
    token.cancel();
    const bridge = signalFromToken(token);
    assert.equal(bridge.signal.aborted, true);
    assert.equal(token.listeners.size, 0);
    bridge.dispose();
  });

  test('dispose stops listening; no token never aborts', () => {
    const token = new FakeToken();
    const bridge = signalFromToken(token);
    assert.equal(token.listeners.size, 1);
    bridge.dispose();
    assert.equal(token.listeners.size, 0);
    token.cancel();
    assert.equal(bridge.signal.aborted, false);
    assert.equal(signalFromToken(undefined).signal.aborted, false);
  });
});

describe('withTokenSignal', () => {
  test('runs the work with the signal and stops listening when it settles, even on failure', async () => {
    const token = new FakeToken();
    let seen: AbortSignal | undefined;
    assert.equal(await withTokenSignal(token, async (signal) => ((seen = signal), 42)), 42);
    assert.equal(token.listeners.size, 0);
    await assert.rejects(withTokenSignal(token, () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(token.listeners.size, 0);
    assert.equal(seen?.aborted, false);
  });

  test('cancelling during the work aborts its signal; an already-cancelled token starts it aborted', async () => {
    const token = new FakeToken();
    const aborted = await withTokenSignal(token, async (signal) => {
      token.cancel();
      return signal.aborted;
    });
    assert.equal(aborted, true);
    assert.equal(await withTokenSignal(token, async (signal) => signal.aborted), true);
  });
});
