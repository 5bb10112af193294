/**
 * A quick first-token probe: the same measurement as `npm run bench`'s first-token figure (bench/run.ts
 * firstToken(): clients interleaved, rotating order, median), for a chosen subset of clients, so a change
 * to the client path can be checked in seconds instead of running the whole bench.
 *
 *   npx tsx bench/firstTokenProbe.ts [requests=1000] [clients=ours,raw+json,openai]
 */
import { CLIENT_NAMES, createStreamClients, type ClientName } from './streamClients';
import { startSseServer } from './sseServer';

const requests = Number(process.argv[2] ?? 1000);
const names = (process.argv[3]?.split(',') ?? ['ours', 'raw+json', 'openai']) as ClientName[];
for (const n of names) if (!CLIENT_NAMES.includes(n)) throw new Error(`unknown client ${n}`);

const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const rotate = <T>(xs: readonly T[], k: number): T[] => xs.map((_, i) => xs[(i + k) % xs.length]);

async function main(): Promise<void> {
  const server = await startSseServer(20);
  const clients = createStreamClients(server.url);
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<ClientName, number[]>;
  for (let i = 0; i < 50; i++) for (const n of names) await clients.run(n);
  for (let i = 0; i < requests; i++) {
    for (const n of rotate(names, i)) {
      const r = await clients.run(n);
      if (r.firstTokenMs < 0) throw new Error(`${n} decoded no content delta`);
      samples[n].push(r.firstTokenMs);
    }
  }
  await clients.close();
  await server.close();
  const base = samples['raw+json'] ? quantile(samples['raw+json'], 0.5) : NaN;
  for (const n of names) {
    const med = quantile(samples[n], 0.5);
    console.log(`${n.padEnd(9)} median ${med.toFixed(3)} ms  p95 ${quantile(samples[n], 0.95).toFixed(3)} ms  vs raw+json ${(med - base >= 0 ? '+' : '') + (med - base).toFixed(3)} ms`);
  }
}

void main();
