/**
 * Model-id diagnostics, one pass (issue 40 item 12): a 140 KB file of distinct near-miss quoted ids
 * ("openai/gpt-4o-2024-01-abc", …) judged against a 400-model catalog, as the editor does on open (in
 * Restricted Mode too) and 300 ms after each edit. Three figures, median ms per pass:
 *  - cold: a fresh catalog index, nothing cached (the pass on open);
 *  - after an edit: the same index, one id changed (the pass 300 ms after typing);
 *  - before: the closeness of 480473c (bench/closenessBefore.ts) on the same file, cold, side by side.
 * Goal: the cold pass <= 50 ms. Run alone: `npx tsx bench/modelIdDiagnostics.bench.ts` (table and one JSON line).
 */
import { performance } from 'node:perf_hooks';
import { CatalogIndex, findingsFor } from '../src/core/modelIds/modelIdFindings';
import { scanModelIds } from '../src/core/modelIds/idScanner';
import type { Model } from '../src/core/gateway/types';
import { closestId as closestBefore } from './closenessBefore';
import { quantile } from './stats';

export const MODEL_ID_PASS_GOAL_MS = 50;

const FAMILIES: Record<string, string[]> = {
  openai: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-5', 'gpt-5-mini', 'o3', 'o4-mini'],
  anthropic: ['claude-sonnet-4', 'claude-opus-4', 'claude-haiku-4', 'claude-3-7-sonnet'],
  google: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.0-flash', 'gemma-3'],
  mistral: ['mistral-large', 'mistral-small', 'codestral', 'pixtral-large'],
  meta: ['llama-4-scout', 'llama-4-maverick', 'llama-3.3-70b'],
  deepseek: ['deepseek-chat', 'deepseek-reasoner'],
  xai: ['grok-4', 'grok-3-mini'],
  qwen: ['qwen3-coder', 'qwen3-235b'],
};

/** A deterministic catalog of `n` realistic ids: provider/family-yyyy-mm-dd. */
export function modelIdCatalog(n = 400): Model[] {
  const bases = Object.entries(FAMILIES).flatMap(([p, fs]) => fs.map((f) => `${p}/${f}`));
  const out: Model[] = [];
  for (let i = 0; out.length < n; i++) {
    const base = bases[i % bases.length];
    const v = Math.floor(i / bases.length);
    const date = `2024-${String(1 + (v % 12)).padStart(2, '0')}-${String(1 + ((v * 7) % 28)).padStart(2, '0')}`;
    const provider = base.slice(0, base.indexOf('/'));
    out.push({ id: `${base}-${date}`, object: 'model', owned_by: provider, provider, display_name: base });
  }
  return out;
}

/** About `bytes` of distinct near-miss quoted ids, one a line: a catalog id's date with its day replaced by three letters; one in ten is one edit away. */
export function nearMissFile(models: readonly Model[], bytes = 140 * 1024): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const id = models[i % models.length].id;
    const code = String.fromCharCode(97 + (i % 26), 97 + (Math.floor(i / 26) % 26), 97 + (Math.floor(i / 676) % 26));
    const miss = i % 10 === 0 ? `${id.slice(0, -1)}${code[0]}` : `${id.slice(0, -2)}${code}`;
    const line = `  "${miss}",\n`;
    lines.push(line);
    size += line.length;
  }
  return `[\n${lines.join('')}]\n`;
}

/** One pass with the closeness before item 12: the same judgement of unknown standalone ids. */
function passBefore(text: string, index: CatalogIndex): number {
  let suggestions = 0;
  for (const t of scanModelIds(text).tokens) if (!index.byId.has(t.text) && t.standalone && closestBefore(t.text, index.list)) suggestions++;
  return suggestions;
}

export interface ModelIdBenchResult {
  models: number;
  fileKB: number;
  ids: number;
  suggestions: number;
  runs: number;
  coldMs: number;
  afterEditMs: number;
  beforeMs: number;
  beforeRuns: number;
  beforeSuggestions: number;
}

export function runModelIdBench(runs = 15, beforeRuns = 3, models = 400): ModelIdBenchResult {
  const catalog = modelIdCatalog(models);
  const text = nearMissFile(catalog);
  const now = Date.parse('2026-06-10T12:00:00Z');
  const cold: number[] = [];
  const edit: number[] = [];
  const before: number[] = [];
  let suggestions = 0;
  let beforeSuggestions = 0;
  // Warm-up: JIT of both paths.
  findingsFor(text, new CatalogIndex(catalog), now);
  passBefore(text.slice(0, 4096), new CatalogIndex(catalog));
  for (let r = 0; r < runs; r++) {
    const index = new CatalogIndex(catalog);
    let t0 = performance.now();
    suggestions = findingsFor(text, index, now).findings.length;
    cold.push(performance.now() - t0);
    // An edit: one more near-miss appended, the rest as before.
    const edited = text.replace(/\]\n$/, `  "openai/gpt-4o-2024-01-zz${r}",\n]\n`);
    t0 = performance.now();
    findingsFor(edited, index, now);
    edit.push(performance.now() - t0);
    if (r < beforeRuns) {
      t0 = performance.now();
      beforeSuggestions = passBefore(text, new CatalogIndex(catalog));
      before.push(performance.now() - t0);
    }
  }
  return {
    models,
    fileKB: text.length / 1024,
    ids: scanModelIds(text).tokens.length,
    suggestions,
    runs,
    coldMs: quantile(cold, 0.5),
    afterEditMs: quantile(edit, 0.5),
    beforeMs: quantile(before, 0.5),
    beforeRuns,
    beforeSuggestions,
  };
}

export function formatModelIdBench(r: ModelIdBenchResult): string[] {
  return [
    `model-id diagnostics, one pass over ${r.fileKB.toFixed(0)} KB of ${r.ids} distinct near-miss ids at ${r.models} models (median of ${r.runs}): cold ${r.coldMs.toFixed(2)} ms, after an edit ${r.afterEditMs.toFixed(2)} ms (${r.suggestions} suggestions)`,
    `  side by side, the closeness before #40.12 (bench/closenessBefore.ts, median of ${r.beforeRuns}): ${r.beforeMs.toFixed(0)} ms (${r.beforeSuggestions} suggestions), ${(r.beforeMs / r.coldMs).toFixed(0)}x the cold pass`,
  ];
}

if (require.main === module) {
  const a = process.argv.slice(2);
  const arg = (flag: string, fallback: number): number => (a.includes(flag) ? Number(a[a.indexOf(flag) + 1]) : fallback);
  const r = runModelIdBench(arg('--runs', 15), arg('--before-runs', 3));
  for (const l of formatModelIdBench(r)) console.log(l);
  console.log(JSON.stringify({ bench: 'modelIds', ...r }));
}
