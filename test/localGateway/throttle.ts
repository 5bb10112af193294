import type { Res } from './context';

/** 429 from the edge: an HTML page, never JSON (G-ERR-3). X-Request-ID is already set (G-ERR-2). */
export function sendThrottled(res: Res): void {
  const html =
    '<!DOCTYPE html>\n<html><head><title>429 Too Many Requests</title></head>\n' +
    '<body><h1>429 Too Many Requests</h1><p>You have sent too many requests. Please try again later.</p><hr><address>edge</address></body></html>\n';
  res.writeHead(429, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html) });
  res.end(html);
}
