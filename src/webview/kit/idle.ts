/**
 * Work a webview does ahead of need, while the page is idle (browser side, DOM-free so it is tested in
 * plain Node): each step runs in its own idle period, so no step holds the page for long, and the next
 * step is asked for only after the previous one ran. The run stops for good when `stop()` says so
 * before a step, or when a step throws: work done ahead is an optimisation and must never break a page.
 */
export type IdleScheduler = (step: () => void) => void;

/** The one browser API used here, typed locally: this module is also compiled without the DOM types. */
type RequestIdle = (cb: () => void, options: { timeout: number }) => number;

/** requestIdleCallback, with a deadline so a page that is never idle still gets there; a timer where it is missing. */
const whenIdle: IdleScheduler = (step) => {
  const requestIdle = (globalThis as { requestIdleCallback?: RequestIdle }).requestIdleCallback;
  if (typeof requestIdle === 'function') requestIdle.call(globalThis, () => step(), { timeout: 2000 });
  else setTimeout(step, 50);
};

export function runWhenIdle(steps: ReadonlyArray<() => void>, stop: () => boolean = () => false, schedule: IdleScheduler = whenIdle): void {
  let i = 0;
  const next = (): void => {
    if (i >= steps.length || stop()) return;
    try {
      steps[i++]();
    } catch {
      return;
    }
    schedule(next);
  };
  schedule(next);
}
