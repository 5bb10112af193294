/**
 * In-memory SecretStore / StateStore for the key model tests. `SharedBackend` plays the OS keychain
 * and globalState shared by several VS Code windows: each `window()` gets its own view whose
 * onDidChange fires for writes from any window, like SecretStorage does.
 */
import { Emitter } from '../../../src/core/disposables';
import type { SecretStore, StateStore } from '../../../src/core/keys/keyStore';

export class SharedBackend {
  readonly secrets = new Map<string, string>();
  readonly state = new Map<string, unknown>();
  private readonly emitter = new Emitter<{ key: string }>();
  /** Every write to the secret backend, in order, for "never in state" assertions. */
  readonly secretWrites: string[] = [];

  window(): { secrets: SecretStore; state: StateStore } {
    const secrets: SecretStore = {
      get: async (key) => this.secrets.get(key),
      store: async (key, value) => {
        this.secrets.set(key, value);
        this.secretWrites.push(key);
        this.emitter.fire({ key });
      },
      delete: async (key) => {
        this.secrets.delete(key);
        this.emitter.fire({ key });
      },
      onDidChange: (listener) => this.emitter.event(listener),
    };
    const state: StateStore = {
      get: <T>(key: string) => structuredClone(this.state.get(key)) as T | undefined,
      update: async (key, value) => {
        this.state.set(key, structuredClone(value));
      },
    };
    return { secrets, state };
  }

  /** A keyring failure: the secret vanishes without any event. */
  loseSecret(key: string): void {
    this.secrets.delete(key);
  }

  /** Everything globalState holds, serialised, to assert that no secret ever lands there. */
  stateText(): string {
    return JSON.stringify([...this.state.entries()]);
  }
}

/** Lets queued promise callbacks (the store's serialized work, event handlers) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r));
}
