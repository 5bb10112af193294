/**
 * The stream reader (src/core/gateway/sse.ts) on adversarial server text: 1 and 2 MiB of each shape, in
 * one read and in 64 reads. Prints times side by side; the figures should grow about linearly with size.
 * Run: `npx tsx bench/sseAdversarial.ts`.
 */
import { readChatStream } from '../src/core/gateway/sse';
async function time(bytes: Uint8Array, reads: number): Promise<number> {
  const size = Math.ceil(bytes.length / reads);
  async function* body() { for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size); }
  const t = performance.now();
  try { for await (const _ of readChatStream(body(), { maxEventChars: 4 * 1024 * 1024 })) { /* drain */ } } catch { /* expected errors */ }
  return performance.now() - t;
}
const enc = new TextEncoder();
const shapes: Record<string, (n: number) => string> = {
  'no newline': (n) => 'a'.repeat(n),
  'lone LFs': (n) => 'a\n'.repeat(n / 2),
  'blank lines': (n) => '\n'.repeat(n),
  'data: without JSON end': (n) => 'data: {"x":' + '1'.repeat(n - 12) + '\n',
  'tiny events': (n) => 'data: {"choices":[]}\n\n'.repeat(Math.floor(n / 23)),
};
void (async () => {
  for (const [name, make] of Object.entries(shapes)) {
    const one = enc.encode(make(1 << 20)), two = enc.encode(make(2 << 20));
    await time(one, 1);
    const a = await time(one, 1), b = await time(two, 1), c = await time(one, 64);
    console.log(`${name.padEnd(24)} 1 MB ${a.toFixed(1)} ms, 2 MB ${b.toFixed(1)} ms (x${(b / a).toFixed(2)}), 1 MB in 64 reads ${c.toFixed(1)} ms`);
  }
})();
