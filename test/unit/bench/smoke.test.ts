import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Smoke variant of `npm run bench` (tiny sizes), so the harness cannot rot. It asserts that every
// figure is produced, never its size: speed is reported by `npm run bench`, not tested.
test('bench smoke: every figure is produced', { timeout: 240_000 }, (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'bench.json');
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke', '--json', out], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(readFileSync(out, 'utf8')) as {
    smoke: boolean;
    machine: { cores: number; node: string };
    throughput: { clients: Record<string, { medianMs: number; chunks: number }> };
    firstToken: { clients: Record<string, { medianMs: number; p95Ms: number }> };
    memory: { heapAfter10MB: number; heapAfterAllMB: number };
    catalog: { filterMs: Record<string, number> };
    modelIds: { coldMs: number; afterEditMs: number; beforeMs: number; ids: number };
    bundles: { activation: { bytes: number; files: number; importMedianMs: number }; lazyChunksKB: number };
    ratios: Record<string, number>;
    chatRender: { skipped?: string };
    firstPaint: { skipped?: string };
    chatOpen: { skipped?: string };
    chatOpenHost: { samples: number; htmlMs: { p95: number }; stateMs: { p95: number; samplesMs: number[] } };
    firstChunkHost: { sends: number; firstChunkToPostedMs: { p95: number } };
    chatSend: Array<Record<'sendToRequest' | 'sendOwnWork' | 'sendFileSystem' | 'finalChunkToSaved' | 'savedOwnWork' | 'savedFileSystem', { median: number; p95: number }> & { conversations: number }>;
  };
  assert.equal(j.smoke, true);
  assert.ok(j.machine.cores > 0 && j.machine.node.startsWith('v'));
  const figure = (n: number): boolean => Number.isFinite(n) && n >= 0;
  for (const name of ['ours', 'openai', 'raw+json', 'raw']) {
    assert.ok(figure(j.throughput.clients[name].medianMs), `${name} throughput`);
    assert.equal(j.throughput.clients[name].chunks, j.throughput.clients.raw.chunks, `${name} decoded every chunk`);
    assert.ok(figure(j.firstToken.clients[name].medianMs) && figure(j.firstToken.clients[name].p95Ms), `${name} first token`);
  }
  for (const k of ['throughputOursOverOpenai', 'timeOursOverRawJson', 'firstTokenOursMinusRawJsonMs']) assert.ok(Number.isFinite(j.ratios[k]), k);
  assert.ok(j.memory.heapAfter10MB > 0 && j.memory.heapAfterAllMB > 0);
  assert.ok(j.modelIds.ids > 0 && figure(j.modelIds.coldMs) && figure(j.modelIds.afterEditMs) && figure(j.modelIds.beforeMs), 'model-id diagnostics pass');
  assert.match(r.stdout, /model-id pass, 140 KB of near-misses, 400 models\s+<= 50 ms/);
  assert.ok(Object.keys(j.catalog.filterMs).length > 0 && Object.values(j.catalog.filterMs).every(figure));
  // --smoke skips the figures that need Chromium; they are marked as not measured, never left out.
  assert.match(j.chatRender.skipped ?? '', /--smoke/);
  assert.match(j.firstPaint.skipped ?? '', /--smoke/);
  assert.match(r.stdout, /first paint in the editor\s+not measured/);
  assert.match(r.stdout, /chat render: not measured/);
  assert.match(j.chatOpen.skipped ?? '', /--smoke/);
  assert.match(r.stdout, /opening the chat in the editor: not measured/);
  assert.match(r.stdout, /opening the chat, first in a window: the extension's part, p95\s+<= 150 ms\s+not measured: skipped by --smoke/);
  // The host's part of that first open is plain Node: measured even by --smoke.
  assert.ok(j.chatOpenHost.samples > 0 && j.chatOpenHost.stateMs.samplesMs.length === j.chatOpenHost.samples, 'the host part of the first open');
  assert.ok(figure(j.chatOpenHost.htmlMs.p95) && figure(j.chatOpenHost.stateMs.p95) && j.chatOpenHost.stateMs.p95 >= j.chatOpenHost.htmlMs.p95 - 1e-9);
  // The host's part of the first paint is plain Node too: measured by --smoke; the page's part needs the editor.
  assert.ok(j.firstChunkHost.sends === 10 && figure(j.firstChunkHost.firstChunkToPostedMs.p95), 'the host part of the first paint');
  assert.match(r.stdout, /first paint after the first chunk: the extension's part, p95\s+<= 16 ms\s+not measured: skipped by --smoke.*\(the host's part alone: p95 [\d.]+ ms\)/);
  assert.match(r.stdout, /cold import of the activation entry, median \(plain Node\)\s+<= CommonJS\s+[\d.]+ ms\s+not compared/);
  assert.match(r.stdout, /re-opening a 500-message conversation, p95\s+<= 100 ms\s+not measured: skipped by --smoke/);
  // The send path's own work is the whole send with the file system's wait taken out, sample by sample.
  assert.ok(j.chatSend.length > 0, 'the chat send figures');
  for (const f of j.chatSend) {
    for (const [whole, own, fs] of [['sendToRequest', 'sendOwnWork', 'sendFileSystem'], ['finalChunkToSaved', 'savedOwnWork', 'savedFileSystem']] as const) {
      assert.ok(figure(f[own].p95) && figure(f[fs].p95) && f[fs].median > 0, `${whole}'s parts at ${f.conversations} conversations`);
      assert.ok(f[own].median <= f[whole].median && f[own].p95 <= f[whole].p95, `${own} at ${f.conversations} conversations is part of ${whole}`);
    }
  }
  assert.match(r.stdout, /chat send -> request leaves, host's own work, p95, 10 saved\s+<= 5 ms\s+[\d.]+ ms\s+(met|OVER)\n\s+\.\.\. the whole send, with the file system's [\d.]+ ms p95\s+[\d.]+ ms/);
  assert.ok(j.bundles.activation.bytes > 0 && j.bundles.lazyChunksKB > 0 && figure(j.bundles.activation.importMedianMs));
});
