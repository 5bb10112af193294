/**
 * Reading an HTTP body from an MCP server with a byte limit. A server can send an endless or huge
 * body; nothing here holds more than `limit` bytes of it, and the read stops (the body is cancelled)
 * as soon as the limit is passed.
 */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** Declared Content-Length, when it is a plain non-negative integer. */
export function declaredLength(res: Response): number | undefined {
  const v = res.headers.get('content-length');
  if (v === null || !/^\d{1,15}$/.test(v.trim())) return undefined;
  return Number(v.trim());
}

/**
 * The body as text, at most `limit` bytes. Throws BodyTooLargeError past the limit (or with
 * `truncate`, returns the first `limit` bytes instead). Invalid UTF-8 becomes U+FFFD.
 */
export async function readBodyLimited(res: Response, limit: number, options: { truncate?: boolean } = {}): Promise<string> {
  const declared = declaredLength(res);
  if (declared !== undefined && declared > limit && !options.truncate) {
    await res.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.byteLength > limit) {
        if (options.truncate) parts.push(decoder.decode(value.subarray(0, limit - total), { stream: true }));
        await reader.cancel().catch(() => undefined);
        if (options.truncate) break;
        throw new BodyTooLargeError(limit);
      }
      total += value.byteLength;
      parts.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/**
 * The same response with a body that errors once more than `limit` bytes have passed. `onOverflow`
 * runs once, at that moment (the caller aborts the request with it).
 */
export function limitResponse(res: Response, limit: number, onOverflow: () => void): Response {
  if (!res.body) return res;
  let total = 0;
  let tripped = false;
  const counted = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > limit) {
          if (!tripped) {
            tripped = true;
            onOverflow();
          }
          controller.error(new BodyTooLargeError(limit));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  try {
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
  } catch {
    // A status the Response constructor refuses (1xx, say): hand back the counted stream's source as is.
    void counted.cancel().catch(() => undefined);
    return res;
  }
}
