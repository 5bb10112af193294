/**
 * Client memory: heap after 1,000 streamed completions vs after 10, both after GC, in one process.
 * Run with --expose-gc (bench/run.ts does). Prints one JSON line.
 */
import { createStreamClients } from './streamClients';
import { startSseServer } from './sseServer';

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 1000);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const server = await startSseServer(200);
  const clients = createStreamClients(server.url);
  const settle = async (): Promise<number> => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setImmediate(r));
    }
    return process.memoryUsage().heapUsed;
  };
  let after10 = 0;
  for (let i = 1; i <= total; i++) {
    const r = await clients.run('ours');
    if (r.chunks !== server.chunks) throw new Error(`expected ${server.chunks} chunks, got ${r.chunks}`);
    if (i === 10) after10 = await settle();
  }
  const afterAll = await settle();
  await clients.close();
  await server.close();
  console.log(JSON.stringify({ completions: total, heapAfter10: after10, heapAfterAll: afterAll }));
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
