/**
 * The stream benchmark of bench/run.ts alone, quick to repeat while working on the stream path: our
 * client as checked out ("new"), our client at an older git ref ("old", its src/ extracted to a temp
 * directory) and the raw+json baseline, interleaved in one process; medians of the 50,000-chunk
 * stream time and of the first-token time, as ratios to raw+json.
 *
 * Run: `npx tsx bench/streamSideBySide.ts [--ref main] [--rounds 21] [--ttft 300]`.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkoutAtRef } from './gitRef';
import { startSseServer } from './sseServer';
import { quantile } from './stats';
import { BENCH_KEY, createStreamClients, runGatewayClient, type RunResult } from './streamClients';
import type { createGatewayClient as CreateGatewayClient } from '../src/core/gateway/gatewayClient';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const ref = flag('--ref', 'main');
const rounds = Number(flag('--rounds', '21'));
const ttftRequests = Number(flag('--ttft', '300'));

const median = (xs: number[]): number => quantile(xs, 0.5);

type Runner = () => Promise<RunResult>;

function oldRunner(create: typeof CreateGatewayClient, baseUrl: string): { run: Runner; close(): Promise<void> } {
  const client = create({ baseUrl, getKey: async () => BENCH_KEY, userAgent: 'ai-gateway-vscode/bench', retry: { maxAttempts: 1 }, timeouts: { connectMs: 10_000, firstByteMs: 60_000, idleMs: 60_000 } });
  return {
    run: () => runGatewayClient(client),
    close: () => client.dispose(),
  };
}

async function measure(create: typeof CreateGatewayClient, chunks: number, n: number, warmup: number, what: 'total' | 'first'): Promise<Record<string, number>> {
  const server = await startSseServer(chunks);
  const clients = createStreamClients(server.url);
  const old = oldRunner(create, server.url);
  const runners: Record<string, Runner> = { 'raw+json': () => clients.run('raw+json'), old: old.run, new: () => clients.run('ours') };
  const names = Object.keys(runners);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
  for (let i = 0; i < warmup; i++) for (const k of names) await runners[k]();
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < names.length; j++) {
      const k = names[(i + j) % names.length];
      const t0 = performance.now();
      const r = await runners[k]();
      if (r.chunks < chunks - 1 || r.firstTokenMs < 0) throw new Error(`${k} decoded ${r.chunks} chunks`);
      samples[k].push(what === 'total' ? performance.now() - t0 : r.firstTokenMs);
    }
  }
  await clients.close();
  await old.close();
  await server.close();
  return Object.fromEntries(names.map((k) => [k, median(samples[k])]));
}

void (async () => {
  const dir = checkoutAtRef(ref, ['src']);
  try {
    const mod = (await import(pathToFileURL(path.join(dir, 'src/core/gateway/gatewayClient.ts')).href)) as { createGatewayClient: typeof CreateGatewayClient };
    const create = mod.createGatewayClient;
    if (rounds > 0) {
      const t = await measure(create, 50_000, rounds, 2, 'total');
      const base = t['raw+json'];
      console.log(
        `stream 50,000 chunks, median of ${rounds}: raw+json ${base.toFixed(1)} ms | old (${ref}) ${t.old.toFixed(1)} ms = ${(t.old / base).toFixed(3)}x | new ${t.new.toFixed(1)} ms = ${(t.new / base).toFixed(3)}x | new/old ${(t.new / t.old).toFixed(3)}`,
      );
    }
    if (ttftRequests > 0) {
      const f = await measure(create, 20, ttftRequests, 30, 'first');
      const base = f['raw+json'];
      const plus = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
      console.log(`first token, median of ${ttftRequests}: raw+json ${base.toFixed(3)} ms | old ${plus(f.old - base)} ms | new ${plus(f.new - base)} ms`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();
