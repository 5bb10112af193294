/**
 * The stream throughput of bench/run.ts for the two routes alone, quick to repeat while working on the
 * decoders (issue 40 item 13): our chat client and raw+json on the chat route, and on the messages
 * route our own events, our chat translation and raw+json, interleaved in one process (each round
 * rotates the order), so machine noise falls on all five. Prints the medians and each of ours as a
 * ratio to the raw+json of its route (goal: <= 1.1x for all three).
 *
 * Run: `npx tsx bench/messagesSideBySide.ts [--rounds 21] [--chunks 50000]`; `node --cpu-prof --import tsx …` to profile.
 */
import { startSseServer } from './sseServer';
import { quantile } from './stats';
import { createStreamClients, type ClientName, type MessagesClientName } from './streamClients';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const rounds = Number(flag('--rounds', '21'));
const chunks = Number(flag('--chunks', '50000'));

/** The goal for ours over raw+json, per route (issue 40 item 13). */
export const STREAM_RATIO_GOAL = 1.1;

type Name = ClientName | MessagesClientName;
const NAMES: Name[] = ['ours', 'raw+json', 'ours messages', 'ours msg→chat', 'raw+json msgs'];

void (async () => {
  const server = await startSseServer(chunks);
  const clients = createStreamClients(server.url);
  const run = (n: Name) => (n === 'ours' || n === 'raw+json' ? clients.run(n) : clients.runMessages(n as MessagesClientName));
  const samples: Record<string, number[]> = Object.fromEntries(NAMES.map((n) => [n, []]));
  for (const n of NAMES) await run(n); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < NAMES.length; j++) {
      const n = NAMES[(r + j) % NAMES.length];
      const t0 = performance.now();
      const res = await run(n);
      if (res.chunks < chunks - 2) throw new Error(`${n} decoded ${res.chunks} of ${chunks}`);
      samples[n].push(performance.now() - t0);
    }
  }
  await clients.close();
  await server.close();
  const med = (n: Name): number => quantile(samples[n], 0.5);
  const ratio = (a: Name, b: Name): string => `${(med(a) / med(b)).toFixed(3)}x`;
  console.log(`${chunks} events per stream, median of ${rounds} interleaved rounds (ms):`);
  console.log(`  chat:     ours ${med('ours').toFixed(1)}  raw+json ${med('raw+json').toFixed(1)}  -> ours ${ratio('ours', 'raw+json')}`);
  console.log(
    `  messages: ours events ${med('ours messages').toFixed(1)}  ours→chat ${med('ours msg→chat').toFixed(1)}  raw+json ${med('raw+json msgs').toFixed(1)}  -> events ${ratio('ours messages', 'raw+json msgs')}, →chat ${ratio('ours msg→chat', 'raw+json msgs')} (goal <= ${STREAM_RATIO_GOAL}x)`,
  );
})();
