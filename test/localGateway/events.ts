import type { GatewayEvent, GatewayEventLog } from './context';

/** In-memory event log with waiters; bounded so a long `npm run gateway` session does not grow forever. */
export class EventLog implements GatewayEventLog {
  private events: GatewayEvent[] = [];
  private readonly waiters = new Set<{ type: string; predicate: (e: GatewayEvent) => boolean; resolve: (e: GatewayEvent) => void }>();

  constructor(private readonly limit = 5000) {}

  push(event: { type: string; [field: string]: unknown }): void {
    const full: GatewayEvent = { ...event, at: Date.now() };
    this.events.push(full);
    if (this.events.length > this.limit) this.events.splice(0, this.events.length - this.limit);
    for (const w of [...this.waiters]) {
      if (w.type === full.type && w.predicate(full)) {
        this.waiters.delete(w);
        w.resolve(full);
      }
    }
  }

  list(type?: string): GatewayEvent[] {
    return type === undefined ? [...this.events] : this.events.filter((e) => e.type === type);
  }

  clear(): void {
    this.events = [];
  }

  waitFor(type: string, predicate: (event: GatewayEvent) => boolean = () => true, timeoutMs = 5000): Promise<GatewayEvent> {
    const found = this.events.find((e) => e.type === type && predicate(e));
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter = {
        type,
        predicate,
        resolve: (e: GatewayEvent) => {
          clearTimeout(timer);
          resolve(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no '${type}' event within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }
}
