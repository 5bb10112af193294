/**
 * The chat history the chat-open benches seed (bench/chatOpen.ts in the editor, bench/chatOpenHost.ts in
 * plain Node): a 2-message conversation (the most recent: what the view opens with), one of 500 messages
 * and eight fillers, deterministic, in HistoryStore's format (src/core/chat/historyStore.ts: one JSON file
 * per conversation, 0600 in a 0700 directory).
 */
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BIG_TITLE = 'Bench: a long conversation (500 messages)';
export const SMALL_TITLE = 'Bench: a short conversation';
export const BIG_MESSAGES = 500;

/** Deterministic PRNG (mulberry32): the same history on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the a request stream model token gateway reply cache header value function returns error retry budget chat history view webview key secret editor file line code test build render message buffer parser limit schema tool call result server client status timeout window extension workspace setting'.split(
    ' ',
  );

function sentence(r: () => number, words: number): string {
  const w = Array.from({ length: words }, () => WORDS[Math.floor(r() * WORDS.length)]);
  if (r() < 0.3) w[Math.floor(r() * w.length)] = `\`${WORDS[Math.floor(r() * WORDS.length)]}()\``;
  const s = w.join(' ');
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

function paragraph(r: () => number): string {
  return Array.from({ length: 2 + Math.floor(r() * 5) }, () => sentence(r, 6 + Math.floor(r() * 14))).join(' ');
}

const CODE: Record<string, (r: () => number, i: number) => string> = {
  ts: (r, i) =>
    Array.from({ length: 4 + Math.floor(r() * 24) }, (_, k) =>
      k === 0 ? `export async function step${i}(input: string): Promise<number> {` : `  const v${k} = await fetchValue(input, ${Math.floor(r() * 1000)}); // ${sentence(r, 4)}`,
    ).join('\n') + '\n}',
  python: (r, i) => [`def step_${i}(items):`, ...Array.from({ length: 3 + Math.floor(r() * 16) }, (_, k) => `    total_${k} = sum(x * ${k} for x in items if x > ${Math.floor(r() * 50)})`), '    return total_0'].join('\n'),
  bash: (r) => Array.from({ length: 2 + Math.floor(r() * 8) }, () => `npm run ${WORDS[Math.floor(r() * WORDS.length)]} -- --${WORDS[Math.floor(r() * WORDS.length)]}=${Math.floor(r() * 100)}`).join('\n'),
  json: (r) => JSON.stringify(Object.fromEntries(Array.from({ length: 3 + Math.floor(r() * 10) }, (_, k) => [`${WORDS[k % WORDS.length]}${k}`, r() < 0.5 ? Math.floor(r() * 1e4) : sentence(r, 3)])), null, 2),
};

/** One assistant reply: a realistic mix of Markdown, from a short answer to a long one with code. */
function reply(r: () => number, i: number): string {
  const parts: string[] = [paragraph(r)];
  const kind = r();
  if (kind < 0.45) {
    const lang = Object.keys(CODE)[Math.floor(r() * 4)];
    parts.push(`\`\`\`${lang}\n${CODE[lang](r, i)}\n\`\`\``, paragraph(r));
  } else if (kind < 0.65) {
    parts.push(Array.from({ length: 3 + Math.floor(r() * 5) }, () => `- ${sentence(r, 5 + Math.floor(r() * 10))}`).join('\n'));
  } else if (kind < 0.75) {
    parts.push(`### ${sentence(r, 4).slice(0, -1)}`, paragraph(r), '| option | default | effect |\n| --- | --- | --- |\n' + Array.from({ length: 3 + Math.floor(r() * 4) }, () => `| \`${WORDS[Math.floor(r() * WORDS.length)]}\` | ${Math.floor(r() * 100)} | ${sentence(r, 5)} |`).join('\n'));
  } else if (kind < 0.85) {
    parts.push(paragraph(r), paragraph(r));
  }
  if (r() < 0.2) parts.push(`See [the docs](https://example.com/docs/${i}) for more.`);
  return parts.join('\n\n');
}

function question(r: () => number, i: number): string {
  const q = sentence(r, 6 + Math.floor(r() * 30));
  if (r() < 0.15) return `${q}\n\n\`\`\`ts\n${CODE.ts(r, i).split('\n').slice(0, 6).join('\n')}\n\`\`\``;
  return r() < 0.5 ? q : `${q} ${paragraph(r)}`;
}

export interface SeededConversation {
  id: string;
  title: string;
  lastMessageId: string;
  json: string;
}

function conversation(id: string, title: string, messages: number, updatedAt: number, seed: number): SeededConversation {
  const r = rng(seed);
  const model = 'openai/gpt-4.1';
  const start = updatedAt - messages * 60_000;
  const msgs = Array.from({ length: messages }, (_, k) => {
    const user = k % 2 === 0;
    const content = user ? question(r, k) : reply(r, k);
    const base = { id: `${id}-m${String(k).padStart(4, '0')}`, role: user ? 'user' : 'assistant', content, status: 'complete', createdAt: start + k * 60_000 };
    if (user) return base;
    const completion = Math.ceil(content.length / 4);
    return { ...base, modelId: model, usage: { prompt_tokens: 200 + k * 40, completion_tokens: completion, total_tokens: 200 + k * 40 + completion } };
  });
  const conv = { version: 1, id, title, modelId: model, systemPrompt: '', createdAt: start, updatedAt, messages: msgs };
  return { id, title, lastMessageId: msgs[msgs.length - 1].id, json: JSON.stringify(conv) };
}

/**
 * Writes the history into `dir`, the chat folder of the extension's global storage, before the extension
 * has read it. The most recent conversation is the short one.
 */
export function seedHistoryIn(dir: string): { big: SeededConversation; small: SeededConversation } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const now = Date.now();
  const small = conversation('benchsmall', SMALL_TITLE, 2, now - 60_000, 2);
  const big = conversation('bench500', BIG_TITLE, BIG_MESSAGES, now - 3600_000, 500);
  const fillers = Array.from({ length: 8 }, (_, k) => conversation(`benchfiller${k}`, `Bench: filler ${k}`, 4 + k * 6, now - (k + 2) * 86_400_000, 100 + k));
  for (const c of [small, big, ...fillers]) {
    const file = join(dir, `${c.id}.json`);
    writeFileSync(`${file}.seed.tmp`, c.json, { mode: 0o600 });
    renameSync(`${file}.seed.tmp`, file);
  }
  return { big, small };
}

