/**
 * Catalog benchmark: filter and tree-item build time for a 2,000-model catalog (the goal is
 * under 10 ms to filter, so typing in the filter box never lags). Run: `npx tsx bench/catalog.bench.ts` (prints a table and one JSON line).
 * Exported `runCatalogBench()` lets the `npm run bench` driver fold the figures into its report.
 */
import { performance } from 'node:perf_hooks';
import { buildCatalogTree, filterModels, type CatalogFilter, type Grouping } from '../src/core/catalog/tree';
import { CAPABILITIES, PROVIDERS, type Model } from '../src/core/gateway/types';

/** A deterministic synthetic catalog: mixed providers (one unknown), capabilities, deprecations. */
export function syntheticCatalog(n = 2000): Model[] {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const providers = [...PROVIDERS, 'acme'];
  const out: Model[] = [];
  for (let i = 0; i < n; i++) {
    const provider = providers[i % providers.length];
    const caps = CAPABILITIES.filter(() => rand() < 0.3);
    const m: Model = {
      id: `${provider}/model-${i.toString().padStart(4, '0')}`,
      object: 'model',
      owned_by: provider,
      provider,
      display_name: `${provider.toUpperCase()} Model ${i}`,
      capabilities: caps.length ? caps : ['chat'],
      context_window: 8192 * (1 + (i % 16)),
      pricing: { input_per_million: `${(i % 50) / 10}`, output_per_million: `${i % 97}.25`, pricing_version: '2026-06-01', unit: 'credits' },
    };
    if (i % 10 === 0) m.deprecation_date = '2026-01-01';
    if (i % 20 === 0) m.removal_date = i % 40 === 0 ? '2026-02-01' : '2027-03-01';
    out.push(m);
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(runs: number, fn: () => unknown): number {
  for (let i = 0; i < 20; i++) fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

export interface CatalogBenchResult {
  models: number;
  runs: number;
  /** Median ms per case. */
  filterMs: Record<string, number>;
  buildMs: Record<string, number>;
}

export function runCatalogBench(runs = 200, size = 2000): CatalogBenchResult {
  const models = syntheticCatalog(size);
  const now = Date.parse('2026-06-10T12:00:00Z');
  const filters: Record<string, CatalogFilter> = {
    none: {},
    tools: { capabilities: ['tools'] },
    'tools+vision+text': { capabilities: ['tools', 'vision'], text: 'model 1' },
    'showRemoved+text': { text: 'qwen', showRemoved: true },
  };
  const filterMs: Record<string, number> = {};
  for (const [name, f] of Object.entries(filters)) filterMs[name] = time(runs, () => filterModels(models, f, now));
  const all = filterModels(models, {}, now);
  const buildMs: Record<string, number> = {};
  for (const g of ['provider', 'capability', 'flat'] as Grouping[]) buildMs[g] = time(runs, () => buildCatalogTree(all, g));
  return { models: size, runs, filterMs, buildMs };
}

if (require.main === module) {
  const r = runCatalogBench();
  console.log(`catalog bench: ${r.models} models, median of ${r.runs} runs`);
  for (const [k, v] of Object.entries(r.filterMs)) console.log(`  ${`filter (${k})`.padEnd(32)} ${v.toFixed(3)} ms`);
  for (const [k, v] of Object.entries(r.buildMs)) console.log(`  ${`build tree items (${k})`.padEnd(32)} ${v.toFixed(3)} ms`);
  console.log(JSON.stringify({ bench: 'catalog', ...r }));
}
