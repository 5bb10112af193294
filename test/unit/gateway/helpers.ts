/** Plain-HTTP helpers for the local gateway's own tests (no client code: the client is tested elsewhere). */
import { after, before } from 'node:test';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import type { GatewayOptions } from '../../localGateway/context';

export { LOCAL_KEYS };

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const TRACE_ID = /^[0-9a-f]{32}$/;

/** Starts one gateway for the enclosing suite (ephemeral port) and closes it afterwards. */
export function useGateway(options: GatewayOptions = {}): () => RunningGateway {
  let gateway: RunningGateway | undefined;
  before(async () => {
    gateway = await startGateway(options);
  });
  after(async () => {
    await gateway?.close();
  });
  return () => {
    if (gateway === undefined) throw new Error('gateway not started');
    return gateway;
  };
}

export function bearer(key: string): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}

/** `key` null sends no Authorization header; undefined means the User/Full key. */
export async function postJson(gw: RunningGateway, path: string, body: unknown, key: string | null = LOCAL_KEYS.userFull, signal?: AbortSignal): Promise<Response> {
  return fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(key !== null ? bearer(key) : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
}

export function chat(gw: RunningGateway, body: Record<string, unknown>, key?: string | null, signal?: AbortSignal): Promise<Response> {
  return postJson(gw, '/v1/chat/completions', body, key, signal);
}

export function userSays(text: string, model = 'openai/gpt-5.1', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model, messages: [{ role: 'user', content: text }], ...extra };
}

export interface Envelope {
  error: { message: string; type: string; code: number; request_id: string };
}

/** Reads an error response and checks the envelope invariants every error must hold (G-ERR-1, G-ERR-2). */
export async function envelopeOf(res: Response): Promise<Envelope['error']> {
  const text = await res.text();
  const body = JSON.parse(text) as Envelope;
  if (typeof body.error?.message !== 'string' || typeof body.error.type !== 'string') throw new Error(`not an envelope: ${text}`);
  if (body.error.code !== res.status) throw new Error(`code ${body.error.code} does not mirror status ${res.status}`);
  if (body.error.request_id !== res.headers.get('x-request-id')) throw new Error('request_id does not match X-Request-ID');
  return body.error;
}

/** Splits an SSE body into its `data:` payloads. */
export function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) =>
      block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    );
}

/** Reads a streamed body until `count` SSE events arrived; returns them (the stream stays open). */
export async function readEvents(res: Response, count: number): Promise<string[]> {
  const reader = res.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const decoder = new TextDecoder();
  let text = '';
  while (sseData(text).length < count || !text.endsWith('\n\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return sseData(text);
}
