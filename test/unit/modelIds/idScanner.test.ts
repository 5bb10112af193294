/**
 * The model-id scanner and what is said about the ids it finds, on fixtures of every listed language,
 * against a fixed clock.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scanModelIds } from '../../../src/core/modelIds/idScanner';
import { CatalogIndex, applyEdits, findingsFor, replaceIdEdits } from '../../../src/core/modelIds/modelIdFindings';
import { boundedDistance, closestId } from '../../../src/core/modelIds/closeness';
import { completionSpot, hoverMarkdown, idCompletions } from '../../../src/core/modelIds/modelIdInfo';
import type { Model } from '../../../src/core/gateway/types';

const NOW = Date.UTC(2026, 10, 27, 15, 0, 0); // 2026-11-27
const model = (id: string, extra: Partial<Model> = {}): Model => ({
  id,
  object: 'model',
  owned_by: id.split('/')[0],
  provider: id.split('/')[0],
  display_name: id.split('/')[1].toUpperCase(),
  capabilities: ['chat'],
  pricing: { input_per_million: '2.50', output_per_million: '10', pricing_version: 'v1', unit: 'credits' },
  ...extra,
});
const CATALOG: Model[] = [
  model('openai/gpt-5.1', { capabilities: ['chat', 'tools'], context_window: 400000, max_output_tokens: 128000 }),
  model('openai/gpt-4o', { description: 'Deprecated: use openai/gpt-5.1 instead.', deprecation_date: '2026-10-28', removal_date: '2027-01-11', capabilities: ['chat', 'tools', 'vision'] }),
  model('openai/gpt-4-turbo', { description: 'Removed: use openai/gpt-5.1 instead.', deprecation_date: '2026-05-11', removal_date: '2026-11-07' }),
  model('anthropic/claude-sonnet-4.5', { capabilities: ['chat', 'tools', 'reasoning'] }),
  model('qwen/qwen-turbo', { description: 'Deprecated: use qwen/qwen3-max instead.', deprecation_date: '2026-11-22' }),
  model('qwen/qwen3-max', { capabilities: ['chat'] }),
];
const INDEX = new CatalogIndex(CATALOG);

function ids(text: string): string[] {
  return scanModelIds(text).tokens.map((t) => t.text);
}

describe('[#31.1] model ids are found in every listed language', () => {
  const FIXTURES: Array<[string, string, string[]]> = [
    ['JavaScript', `const r = await client.chat({ model: "openai/gpt-4o", tools });\n// see src/core/x for details`, ['openai/gpt-4o']],
    ['TypeScript template', 'const m: string = `anthropic/claude-sonnet-4.5`;', ['anthropic/claude-sonnet-4.5']],
    ['PHP', `<?php\n$args = array( 'model' => 'openai/gpt-4o', 'note' => 'it\\'s qwen/qwen-turbo' );\n# openai/gpt-5.1 in a comment`, ['openai/gpt-4o', 'qwen/qwen-turbo', 'openai/gpt-5.1']],
    ['Python', `MODEL = "openai/gpt-4o"  # was openai/gpt-4-turbo\nurl = "https://example.com/openai/gpt-4o"`, ['openai/gpt-4o', 'openai/gpt-4-turbo']],
    ['JSON with escaped quotes', `{"model":"openai/gpt-4o","prompt":"say \\"qwen/qwen-turbo\\" twice"}`, ['openai/gpt-4o', 'qwen/qwen-turbo']],
    ['YAML', `steps:\n  - model: openai/gpt-4o\n    fallback: qwen/qwen-turbo # old\n`, ['openai/gpt-4o', 'qwen/qwen-turbo']],
    ['.env', `AI_MODEL=openai/gpt-4o\r\nOTHER=a/b/c\r\n`, ['openai/gpt-4o']],
    ['Markdown', 'Use `openai/gpt-5.1`. The old openai/gpt-4o: gone soon. Paths like docs/a.md/x and @scope/pkg are not ids.', ['openai/gpt-5.1', 'openai/gpt-4o']],
  ];
  for (const [language, text, expected] of FIXTURES) {
    test(`[#31.1] ${language}`, () => {
      assert.deepEqual(ids(text), expected);
      for (const t of scanModelIds(text).tokens) assert.equal(text.slice(t.start, t.end), t.text, 'offsets point at the id');
    });
  }

  test('[#31.1] a whole string or a whole bare value is standalone; an id inside a sentence is not', () => {
    const text = `a = "openai/gpt-4p"\nb: openai/gpt-4p\nC=openai/gpt-4p # x\n"see openai/gpt-4p here"\nd: openai/gpt-4p and more`;
    assert.deepEqual(scanModelIds(text).tokens.map((t) => t.standalone), [true, true, true, false, false]);
  });

  test('[#31.1] a truncated scan says where it stopped', () => {
    const scan = scanModelIds('"openai/gpt-4o" '.repeat(10), { maxChars: 1000, maxTokens: 3, maxTokenChars: 128 });
    assert.equal(scan.tokens.length, 3);
    assert.equal(scan.truncated?.reason, 'tokens');
    const chars = scanModelIds('x'.repeat(50) + ' openai/gpt-4o', { maxChars: 40, maxTokens: 10, maxTokenChars: 128 });
    assert.deepEqual(chars.tokens, []);
    assert.deepEqual(chars.truncated, { reason: 'chars', scannedChars: 40 });
  });
});

describe('[#31.3] diagnostics against a fixed clock', () => {
  const text = `{\n  "a": "openai/gpt-4o",\n  "b": "openai/gpt-4-turbo",\n  "c": "openai/gpt-5.1",\n  "d": "openai/gpt-5.2",\n  "e": "qwen/qwen-turbo",\n  "f": "see openai/gpt-5.2 here"\n}`;
  const { findings, known } = findingsFor(text, INDEX, NOW);

  test('[#31.3] removed is an error, deprecated a warning with the days left, a close unknown id an information', () => {
    assert.deepEqual(
      findings.map((f) => [f.id, f.kind, f.severity, f.replacement]),
      [
        ['openai/gpt-4o', 'deprecated', 'warning', 'openai/gpt-5.1'],
        ['openai/gpt-4-turbo', 'removed', 'error', 'openai/gpt-5.1'],
        ['openai/gpt-5.2', 'unknown', 'information', 'openai/gpt-5.1'],
        ['qwen/qwen-turbo', 'deprecated', 'warning', 'qwen/qwen3-max'],
      ],
    );
    assert.equal(findings[0].message, 'openai/gpt-4o (GPT-4O) is deprecated: removed in 45 days, on 2027-01-11. Alternative: openai/gpt-5.1.');
    assert.equal(findings[1].message, 'openai/gpt-4-turbo (GPT-4-TURBO) was removed on 2026-11-07: the gateway rejects requests naming it. Alternative: openai/gpt-5.1.');
    assert.equal(findings[2].message, 'openai/gpt-5.2 is not in the model catalog. Did you mean openai/gpt-5.1?');
    assert.equal(findings[3].message, 'qwen/qwen-turbo (QWEN-TURBO) is deprecated since 2026-11-22; no removal date announced. Alternative: qwen/qwen3-max.');
    assert.equal(known.length, 4);
  });

  test('[#31.3] the day before removal says 1 day; on the removal date it is an error', () => {
    const dayBefore = findingsFor('"openai/gpt-4o"', INDEX, Date.UTC(2027, 0, 10, 23, 59)).findings[0];
    assert.match(dayBefore.message, /removed in 1 day, on 2027-01-11/);
    assert.equal(dayBefore.severity, 'warning');
    const onTheDay = findingsFor('"openai/gpt-4o"', INDEX, Date.UTC(2027, 0, 11, 0, 0)).findings[0];
    assert.equal(onTheDay.severity, 'error');
  });

  test('[#31.3] ids that are far from every catalog id, or not whole values, are left alone', () => {
    assert.deepEqual(findingsFor('"image/png" "text/plain" "vendor/package" "openai/gpt-5.2-codex-max"', INDEX, NOW).findings, []);
  });

  test('[#31.3] closeness is bounded edit distance, case-insensitive', () => {
    assert.equal(boundedDistance('gpt-4o', 'gpt-o4', 2), 1);
    assert.equal(boundedDistance('abcdef', 'uvwxyz', 2), 3);
    assert.equal(closestId('OpenAI/GPT-4o', INDEX.list), 'openai/gpt-4o');
    assert.equal(closestId('nothing/alike', INDEX.list), undefined);
  });
});

describe('[#31.4] quick-fix edits', () => {
  test('[#31.4] every whole occurrence is replaced, nothing else, CRLF kept', () => {
    const text = `MODEL=openai/gpt-4o\r\n# openai/gpt-4o-mini stays, so does xopenai/gpt-4o\r\nB='openai/gpt-4o'\r\n`;
    const edits = replaceIdEdits(text, 'openai/gpt-4o', 'openai/gpt-5.1');
    assert.equal(edits.length, 2);
    assert.equal(applyEdits(text, edits), `MODEL=openai/gpt-5.1\r\n# openai/gpt-4o-mini stays, so does xopenai/gpt-4o\r\nB='openai/gpt-5.1'\r\n`);
  });
  test('[#31.4] a file that does not name the id costs one indexOf', () => {
    assert.deepEqual(replaceIdEdits('nothing here', 'openai/gpt-4o', 'x/y'), []);
  });
});

describe('[#31.1] hover', () => {
  test('[#31.1] name, provider (by its name), capabilities, limits, every rate, the deprecation with days left and the alternative', () => {
    const md = hoverMarkdown(CATALOG[1], NOW, INDEX.ids);
    for (const part of ['**GPT\\-4O**', 'Provider: OpenAI', 'Capabilities: chat, tools, vision', 'Context window: not published', 'Max output: no published limit', 'Input: 2\\.50 credits / 1M tokens', 'Output: 10 credits / 1M tokens', 'removed in 45 days', 'Alternative: openai/gpt\\-5\\.1']) {
      assert.ok(md.includes(part), `${part} in\n${md}`);
    }
  });
  test('[#31.1] catalog text cannot inject Markdown links', () => {
    const md = hoverMarkdown(model('x/y', { display_name: '[click](https://evil.example)' }), NOW);
    assert.ok(!md.includes('[click](https'), md);
  });
});

describe('[#31.2] completion', () => {
  test('[#31.2] inside a string, the typed part and the id characters after the cursor are replaced', () => {
    const text = `{ "model": "openai/gp" }`;
    const at = text.indexOf('gp') + 2;
    const spot = completionSpot(text, at);
    assert.deepEqual(spot && { start: spot.start, end: spot.end, typed: spot.typed }, { start: 12, end: at, typed: 'openai/gp' });
    assert.equal(completionSpot('x = foo', 7), undefined, 'not in a string, not after a model key');
    assert.ok(completionSpot('MODEL=', 6), 'a bare value after a model key');
  });
  test('[#31.2] tools nearby: only tool-calling models; otherwise every served model; never removed ones; rates in the detail', () => {
    const text = `client.chat({ tools: [t], model: "" })`;
    const spot = completionSpot(text, text.indexOf('""') + 1);
    assert.equal(spot?.capability, 'tools');
    assert.deepEqual(idCompletions(CATALOG, NOW, spot?.capability).map((c) => c.id), ['anthropic/claude-sonnet-4.5', 'openai/gpt-5.1', 'openai/gpt-4o']);
    const all = idCompletions(CATALOG, NOW);
    assert.deepEqual(all.map((c) => c.id), ['anthropic/claude-sonnet-4.5', 'openai/gpt-5.1', 'qwen/qwen3-max', 'openai/gpt-4o', 'qwen/qwen-turbo']);
    assert.equal(all[1].detail, 'GPT-5.1 \u2014 input 2.50 credits / 1M tokens, output 10 credits / 1M tokens');
    assert.equal(all[3].deprecated, true);
  });
});
