import { FAULT_KINDS, type ActiveFault, type FaultController, type FaultKind, type FaultSpec, type Req } from './context';

export function pathOf(req: Req): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function routeMatches(route: string, path: string): boolean {
  if (route === '*') return path.startsWith('/v1/') || path === '/v1';
  if (route.endsWith('*')) return path.startsWith(route.slice(0, -1));
  return path === route;
}

/** Validates a spec coming from JSON (the control endpoint); throws a readable Error. */
export function parseFaultSpec(value: unknown): FaultSpec {
  if (typeof value !== 'object' || value === null) throw new Error('fault must be an object');
  const v = value as Record<string, unknown>;
  if (typeof v.kind !== 'string' || !FAULT_KINDS.includes(v.kind as FaultKind)) {
    throw new Error(`fault.kind must be one of ${FAULT_KINDS.join(', ')}`);
  }
  const spec: FaultSpec = { kind: v.kind as FaultKind };
  if (v.route !== undefined) {
    if (typeof v.route !== 'string') throw new Error('fault.route must be a string');
    spec.route = v.route;
  }
  if (v.method !== undefined) {
    if (typeof v.method !== 'string') throw new Error('fault.method must be a string');
    spec.method = v.method.toUpperCase();
  }
  // JSON has no Infinity: null or "infinite" arm a fault until cleared.
  if (v.count === null || v.count === 'infinite') spec.count = Infinity;
  else if (v.count !== undefined) {
    if (typeof v.count !== 'number' || !(v.count >= 1)) throw new Error('fault.count must be a number >= 1');
    spec.count = v.count;
  }
  for (const field of ['retryAfter', 'afterChunks'] as const) {
    const n = v[field];
    if (n !== undefined) {
      if (typeof n !== 'number' || n < 0) throw new Error(`fault.${field} must be a number >= 0`);
      spec[field] = n;
    }
  }
  return spec;
}

export class Faults implements FaultController {
  private faults: ActiveFault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): number {
    const fault: ActiveFault = {
      id: this.nextId++,
      kind: spec.kind,
      route: spec.route ?? '*',
      count: spec.count ?? 1,
      fired: 0,
      ...(spec.method !== undefined ? { method: spec.method.toUpperCase() } : {}),
      ...(spec.retryAfter !== undefined ? { retryAfter: spec.retryAfter } : {}),
      ...(spec.afterChunks !== undefined ? { afterChunks: spec.afterChunks } : {}),
    };
    this.faults.push(fault);
    return fault.id;
  }

  clear(): void {
    this.faults = [];
  }

  list(): ActiveFault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  take(req: Req, kinds: readonly FaultKind[]): ActiveFault | undefined {
    const path = pathOf(req);
    const method = (req.method ?? 'GET').toUpperCase();
    const fault = this.faults.find(
      (f) => kinds.includes(f.kind) && routeMatches(f.route, path) && (f.method === undefined || f.method === method) && f.fired < f.count,
    );
    if (fault === undefined) return undefined;
    fault.fired++;
    if (fault.fired >= fault.count) this.faults = this.faults.filter((f) => f !== fault);
    return { ...fault };
  }
}
