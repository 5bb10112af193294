/**
 * Declaring a webview protocol once: each message is one line of a table (message type → its fields'
 * validators, built from the small combinators below), and everything else is derived from it:
 * - the TypeScript message union (`MessageOf<typeof TABLE>`),
 * - the runtime guard (`guardOf(TABLE)`): an unknown type, a missing field, a field of the wrong type
 *   or an oversize string is refused (extra fields are ignored, as JSON from an older page may carry some),
 * - the exhaustive handler map type (`Handlers<Union>`): a map missing a message type does not compile.
 *
 * Request/response pairs (the page asks, the host answers that one question) are declared with
 * `RequestTable`: the request's type, its answer's type and the field carrying the request id. The page
 * sends through `RequestClient` (one pending map; a newer request of a `latestOnly` kind cancels the
 * older one) and drops any answer whose id is not pending (stale, cancelled or never asked); the host
 * answers with `answer(...)`, which copies the id. An answer without an id is a push (the host says it
 * unasked, e.g. the prompt's cost cleared after Send) and goes to its handler as any message does.
 *
 * Imports only src/core/guards.ts: compiled for the webviews (browser) and the host (Node).
 */
import { isRecord } from '../core/guards';

/** A runtime check of one value that also carries its static type. */
export type Check<T> = (x: unknown) => x is T;
/** An optional field's check (the field is `?:` in the derived type). */
export type OptCheck<T> = Check<T | undefined> & { readonly optional: true };
/** A message's fields: name → check. */
export type Fields = Record<string, Check<unknown>>;
/** A protocol: message type → its fields. */
export type Table = Record<string, Fields>;

// ---------- combinators ----------

/** A string, of at most `max` (and at least `min`) characters when given. */
export const str =
  (limits: { min?: number; max?: number } = {}): Check<string> =>
  (x): x is string =>
    typeof x === 'string' && x.length >= (limits.min ?? 0) && (limits.max === undefined || x.length <= limits.max);
/** A finite number (NaN and ±Infinity do not survive JSON). */
export const num: Check<number> = (x): x is number => typeof x === 'number' && Number.isFinite(x);
/** A safe integer within [min, max]. */
export const int =
  (limits: { min?: number; max?: number } = {}): Check<number> =>
  (x): x is number =>
    Number.isSafeInteger(x) && (x as number) >= (limits.min ?? Number.MIN_SAFE_INTEGER) && (x as number) <= (limits.max ?? Number.MAX_SAFE_INTEGER);
/** A position in a list (a safe integer ≥ 0). */
export const index: Check<number> = int({ min: 0 });
export const bool: Check<boolean> = (x): x is boolean => typeof x === 'boolean';
/** One of the listed string literals. */
export const oneOf =
  <const T extends string>(...values: readonly T[]): Check<T> =>
  (x): x is T =>
    typeof x === 'string' && (values as readonly string[]).includes(x);
/** `null` or what `check` accepts. */
export const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (x): x is T | null =>
    x === null || check(x);
/** An array whose every item passes `check`, of at most `max` items when given. */
export const arr =
  <T>(check: Check<T>, max?: number): Check<T[]> =>
  (x): x is T[] =>
    Array.isArray(x) && (max === undefined || x.length <= max) && x.every(check);
/** An optional field: absent (undefined) or what `check` accepts. */
export const opt = <T>(check: Check<T>): OptCheck<T> => Object.assign((x: unknown): x is T | undefined => x === undefined || check(x), { optional: true as const });
/** A hand-written guard for a view model the protocol shares (its type stays the interface it checks). */
export const shape = <T>(guard: (x: unknown) => x is T): Check<T> => guard;

// ---------- derived types ----------

type Flat<T> = { [K in keyof T]: T[K] } & {};
type Checked<C> = C extends Check<infer T> ? T : never;
type RequiredKeys<F extends Fields> = { [K in keyof F]: F[K] extends { optional: true } ? never : K }[keyof F];
type OptionalKeys<F extends Fields> = { [K in keyof F]: F[K] extends { optional: true } ? K : never }[keyof F];
/** The object type a fields declaration checks. */
export type Infer<F extends Fields> = Flat<{ [K in RequiredKeys<F>]: Checked<F[K]> } & { [K in OptionalKeys<F>]?: Exclude<Checked<F[K]>, undefined> }>;
/** The message union a table declares: `{ type: K } & fields` for each K. */
export type MessageOf<T extends Table> = { [K in keyof T & string]: Flat<{ type: K } & Infer<T[K]>> }[keyof T & string];
/** One message of a union by its type. */
export type MessageOfType<U extends { type: string }, K extends U['type']> = Extract<U, { type: K }>;
/** One handler per message type; the compiler refuses a map that misses one. */
export type Handlers<U extends { type: string }, R = void | Promise<void>> = { [K in U['type']]: (msg: MessageOfType<U, K>) => R };

// ---------- derived guard ----------

/** The guard of a table: a known type, and every declared field passing its check. */
export function guardOf<T extends Table>(table: T): (x: unknown) => x is MessageOf<T> {
  return (x): x is MessageOf<T> => {
    if (!isRecord(x) || typeof x.type !== 'string' || !Object.hasOwn(table, x.type)) return false;
    const fields = table[x.type];
    for (const name of Object.keys(fields)) if (!fields[name](x[name])) return false;
    return true;
  };
}

/** Calls the map's handler for `msg` (the map is exhaustive by its type). */
export function dispatch<U extends { type: string }, R>(handlers: Handlers<U, R>, msg: U): R {
  return (handlers[msg.type as U['type']] as (m: U) => R)(msg);
}

// ---------- request / response ----------

/**
 * Request/response pairs: request type → its answer's type and the field (in both) carrying the id.
 * `latestOnly`: a newer request of that kind cancels the pending older one (its answer is then stale).
 */
export type RequestTable<Req extends { type: string }, Res extends { type: string }> = {
  readonly [K in Req['type']]?: { readonly response: Res['type']; readonly id: string; readonly latestOnly?: boolean };
};

/** The page's side of the requests (`Keys`: the declared ones): one pending map of id → the answer's type expected. */
export class RequestClient<Req extends { type: string }, Res extends { type: string }, Keys extends Req['type']> {
  private next = 0;
  private readonly pending = new Map<number, { request: string; response: string }>();
  /** Answer types of declared requests, with the field carrying their id. */
  private readonly answers = new Map<string, string>();

  constructor(
    private readonly table: RequestTable<Req, Res> & { readonly [K in Keys]: unknown },
    private readonly post: (m: Req) => void,
    /** The most requests left waiting; the oldest is forgotten beyond it (the host may not answer some). */
    private readonly maxPending = 64,
  ) {
    for (const spec of Object.values(table) as Array<{ response: string; id: string } | undefined>) if (spec) this.answers.set(spec.response, spec.id);
  }

  /** Sends a request with a fresh id (the message without its id field); returns the id. */
  send<K extends Keys>(type: K, fields: Omit<MessageOfType<Req, K>, 'type' | RequestIdField>): number {
    const spec = (this.table as Record<string, { response: string; id: string; latestOnly?: boolean } | undefined>)[type];
    if (!spec) throw new Error(`${type} is not a declared request`);
    if (spec.latestOnly) for (const [id, p] of this.pending) if (p.request === type) this.pending.delete(id);
    const id = ++this.next;
    this.pending.set(id, { request: type, response: spec.response });
    if (this.pending.size > this.maxPending) this.pending.delete(this.pending.keys().next().value as number);
    this.post({ ...fields, type, [spec.id]: id } as unknown as Req);
    return id;
  }

  /** Forgets pending requests of that kind: their answers will be dropped. */
  cancel(type: Keys): void {
    for (const [id, p] of this.pending) if (p.request === type) this.pending.delete(id);
  }

  /**
   * Whether a message from the host should be handled: any message that is not an answer; an answer
   * without an id (a push); an answer whose id is pending for that answer type (then no longer pending).
   * A stale, cancelled or unknown id: false (dropped).
   */
  accept(msg: Res): boolean {
    const idField = this.answers.get(msg.type);
    if (idField === undefined) return true;
    const id = (msg as unknown as Record<string, unknown>)[idField];
    if (id === undefined) return true;
    const p = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!p || p.response !== msg.type) return false;
    this.pending.delete(id as number);
    return true;
  }

  /** How many requests wait for an answer (tests). */
  get waiting(): number {
    return this.pending.size;
  }
}

/** The answer type a request table names for request `K`. */
type AnswerOf<T, K extends keyof T, Res extends { type: string }> = T[K] extends { readonly response: infer R } ? MessageOfType<Res, R & Res['type']> : never;

/** A protocol's declared requests: the host's `answer` (the compiler checks the pair) and the page's `client`. */
export interface DeclaredRequests<Req extends { type: string }, Res extends { type: string }, T> {
  /** The answer to `request`, its id copied. */
  answer<K extends keyof T & Req['type']>(request: MessageOfType<Req, K>, response: AnswerOf<T, K, Res>): Res;
  /** The page's client of these requests (one per page). */
  client(post: (m: Req) => void): RequestClient<Req, Res, keyof T & Req['type']>;
}

/**
 * Both sides of a request table, once for every protocol: `declareRequests<Req, Res>()(TABLE)` (the
 * message unions first, then the table, whose literal type names the pairs).
 */
export function declareRequests<Req extends { type: string }, Res extends { type: string }>() {
  return <const T extends RequestTable<Req, Res>>(table: T): DeclaredRequests<Req, Res, T> => ({
    answer: (request, response) => answer(table as RequestTable<{ type: string }, Res>, request, response),
    client: (post) => new RequestClient<Req, Res, keyof T & Req['type']>(table as RequestTable<Req, Res> & { readonly [K in keyof T & Req['type']]: unknown }, post),
  });
}

/** The id fields the chat's requests use (the client fills them). */
export type RequestIdField = 'rid' | 'seq';

/** The host's side: the answer to `request`, carrying the request's id when it had one. */
export function answer<Res extends { type: string }>(table: RequestTable<{ type: string }, Res>, request: { type: string }, response: Res): Res {
  const spec = (table as Record<string, { response: string; id: string } | undefined>)[request.type];
  if (!spec || spec.response !== response.type) throw new Error(`${response.type} does not answer ${request.type}`);
  const id = (request as Record<string, unknown>)[spec.id];
  return id === undefined ? response : { ...response, [spec.id]: id };
}
