/**
 * VS Code's lifetime pattern, without `vscode`: anything with `dispose()` is a Disposable, so these
 * classes interoperate with `vscode.Disposable` structurally.
 */
export interface IDisposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose() {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

/** Owns a set of disposables; disposing the store disposes them all, in reverse order of addition. */
export class DisposableStore implements IDisposable {
  private readonly items: IDisposable[] = [];
  private disposed = false;

  add<T extends IDisposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.push(item);
    }
    return item;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed');
  }
}

/** Base class: `this._register(x)` ties x to this object's lifetime. */
export abstract class Disposable implements IDisposable {
  protected readonly _store = new DisposableStore();

  protected _register<T extends IDisposable>(item: T): T {
    return this._store.add(item);
  }

  dispose(): void {
    this._store.dispose();
  }
}

/** Holds the one current thing; replacing it disposes the previous value. */
export class MutableDisposable<T extends IDisposable> implements IDisposable {
  private current: T | undefined;

  get value(): T | undefined {
    return this.current;
  }

  set value(next: T | undefined) {
    if (this.current !== next) {
      this.current?.dispose();
      this.current = next;
    }
  }

  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    this.clear();
  }
}

/** A minimal typed event, for core code that cannot use vscode.EventEmitter. */
export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => IDisposable;

/** Where a listener's throw goes: one handler for every Emitter (like VS Code's onUnexpectedError). */
export type UnexpectedErrorHandler = (error: unknown) => void;

const defaultUnexpectedError: UnexpectedErrorHandler = (error) => console.error(error);
let unexpectedError: UnexpectedErrorHandler = defaultUnexpectedError;

/**
 * Routes every listener throw to `handler` (the extension sends them to its redacting log; tests
 * collect them); `undefined` restores the default (console.error). Returns the handler it replaced.
 */
export function setUnexpectedErrorHandler(handler: UnexpectedErrorHandler | undefined): UnexpectedErrorHandler {
  const previous = unexpectedError;
  unexpectedError = handler ?? defaultUnexpectedError;
  return previous;
}

/** Hands `error` to the unexpected-error handler; a throwing handler is not allowed to escape either. */
export function onUnexpectedError(error: unknown): void {
  try {
    unexpectedError(error);
  } catch {
    // The handler itself failed: nothing sensible is left to tell.
  }
}

export class Emitter<T> implements IDisposable {
  private listeners = new Set<Listener<T>>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  /**
   * Calls every listener (those present when `fire` starts), even when one throws: each throw goes
   * to the one unexpected-error handler (setUnexpectedErrorHandler), never to the caller of `fire`.
   */
  fire(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch (e) {
        onUnexpectedError(e);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
