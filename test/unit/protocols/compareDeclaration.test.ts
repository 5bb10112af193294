/**
 * The Compare Models protocol is declared once (src/protocol/compareProtocol.ts COMPARE_TO_HOST,
 * HOST_TO_COMPARE): both guards, both handler maps and the estimate request derive from it (#40.10).
 * What each guard must answer is written here by hand; each `@ts-expect-error` is a mistake that must not
 * compile (`npx tsc --noEmit -p .` fails on an unused one).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  answerCompare,
  COMPARE_TO_HOST,
  compareRequestClient,
  HOST_TO_COMPARE,
  isCompareWebviewToHost,
  isHostToCompareWebview,
  type CompareHostHandlers,
  type ComparePageHandlers,
  type CompareWebviewToHost,
  type HostToCompareWebview,
} from '../../../src/protocol/compareProtocol';
import { checkProtocol, type Examples } from './declarationChecks';

const PAGE_EXAMPLES: Examples<CompareWebviewToHost> = {
  ready: { type: 'ready' },
  estimate: { type: 'estimate', models: ['openai/gpt-5.1', 'qwen/qwen3-max'], prompt: 'Why?', systemPrompt: 'Be brief.', effort: 'high', rid: 3 },
  send: { type: 'send', models: ['openai/gpt-5.1', 'qwen/qwen3-max'], prompt: 'Why?', systemPrompt: '', effort: 'low' },
  stop: { type: 'stop' },
  attach: { type: 'attach' },
  removeAttachment: { type: 'removeAttachment', index: 0 },
  continueInChat: { type: 'continueInChat', runId: 2, column: 1 },
  openLink: { type: 'openLink', href: 'https://example.com/pricing' },
};

const HOST_EXAMPLES: Examples<HostToCompareWebview> = {
  init: {
    type: 'init',
    models: [{ id: 'openai/gpt-5.1', label: 'GPT-5.1', deprecated: false, rates: 'input 1 credit / 1M tokens', reasoning: { values: ['low', 'high'] } }],
    selected: ['openai/gpt-5.1'],
    systemPrompt: '',
    attachments: [{ label: 'notes.md', chars: 120 }],
  },
  attachments: { type: 'attachments', attachments: [{ label: 'notes.md', chars: 120 }] },
  estimate: { type: 'estimate', total: 'up to 0.2 credits', perModel: [{ model: 'openai/gpt-5.1', text: 'prompt 0.1 credits' }], counted: true, note: 'Estimate.', rid: 3 },
  started: { type: 'started', runId: 2, columns: [{ model: 'openai/gpt-5.1', label: 'GPT-5.1' }] },
  delta: { type: 'delta', runId: 2, column: 0, text: 'Because' },
  columnDone: { type: 'columnDone', runId: 2, column: 0, status: 'done', stats: { totalMs: 900, credits: '0.1 credits' }, error: 'cut', cutOff: 'Cut off at the output limit.' },
  runDone: { type: 'runDone', runId: 2, totalCredits: '0.2 credits' },
  notice: { type: 'notice', message: 'Type a prompt to compare.' },
};

checkProtocol({
  name: 'compare',
  page: { table: COMPARE_TO_HOST, examples: PAGE_EXAMPLES, guard: isCompareWebviewToHost, optional: { estimate: ['effort', 'rid'], send: ['effort'] } },
  host: { table: HOST_TO_COMPARE, examples: HOST_EXAMPLES, guard: isHostToCompareWebview, optional: { estimate: ['total', 'note', 'rid'], columnDone: ['error', 'cutOff'], runDone: ['totalCredits'] } },
  dispatched: [HOST_EXAMPLES.delta, HOST_EXAMPLES.notice, HOST_EXAMPLES.estimate],
});

// ---------- what the compiler enforces ----------

const note = (): void => undefined;
const page: ComparePageHandlers = { init: note, attachments: note, estimate: note, started: note, delta: note, columnDone: note, runDone: note, notice: note };
const { notice: _notice, ...pageWithoutNotice } = page;
// @ts-expect-error -- the page's map misses `notice`
const missingOnPage: ComparePageHandlers = pageWithoutNotice;
const { continueInChat: _cont, ...hostWithoutContinue } = {} as CompareHostHandlers;
// @ts-expect-error -- the host's map misses `continueInChat`
const missingOnHost: CompareHostHandlers = hostWithoutContinue;
// @ts-expect-error -- `send` is a message, not a request
const notARequest = () => compareRequestClient(() => {}).send('send', { models: [], prompt: '', systemPrompt: '' });
// @ts-expect-error -- an estimate is answered by `estimate`, not `notice`
const wrongAnswer = () => answerCompare(PAGE_EXAMPLES.estimate, { type: 'notice', message: 'x' });
void [missingOnPage, missingOnHost, notARequest, wrongAnswer];

test('[#40.10] compare: each estimate goes out with a fresh id; only the answer to the last one asked for is taken', () => {
  const sent: CompareWebviewToHost[] = [];
  const requests = compareRequestClient((m) => sent.push(m));
  const fields = { models: ['a', 'b'], prompt: 'p', systemPrompt: '' };
  requests.send('estimate', fields);
  requests.send('estimate', { ...fields, prompt: 'pq' });
  assert.deepEqual(sent, [{ type: 'estimate', ...fields, rid: 1 }, { type: 'estimate', ...fields, prompt: 'pq', rid: 2 }]);
  const answerTo = (request: CompareWebviewToHost) => answerCompare(request as Extract<CompareWebviewToHost, { type: 'estimate' }>, { type: 'estimate', perModel: [], counted: false });
  assert.equal(requests.accept(answerTo(sent[0])), false, 'the older estimate\'s answer');
  assert.equal(requests.accept(answerTo(sent[1])), true, 'the last estimate\'s answer');
  assert.equal(requests.accept(answerTo(sent[1])), false, 'the same answer twice');
  // An estimate without id (a push) and the run's messages always pass.
  assert.equal(requests.accept({ type: 'estimate', perModel: [], counted: false }), true);
  assert.equal(requests.accept(HOST_EXAMPLES.delta), true);
});

test('[#40.10] compare: the host\'s answer carries the estimate\'s id, and none when the request had none', () => {
  const reply: Extract<HostToCompareWebview, { type: 'estimate' }> = { type: 'estimate', perModel: [], counted: false };
  assert.deepEqual(answerCompare(PAGE_EXAMPLES.estimate, reply), { ...reply, rid: 3 });
  const { rid: _rid, ...withoutId } = PAGE_EXAMPLES.estimate;
  assert.deepEqual(answerCompare(withoutId, reply), reply);
});

test('[#40.10] compare: the bounds of today are kept (five models, an empty model id, an oversize effort or link, a column past the bound)', () => {
  const e = PAGE_EXAMPLES.estimate;
  assert.equal(isCompareWebviewToHost({ ...e, models: ['a', 'b', 'c', 'd', 'e'] }), false);
  assert.equal(isCompareWebviewToHost({ ...e, models: ['a', ''] }), false);
  assert.equal(isCompareWebviewToHost({ ...e, effort: 'x'.repeat(25) }), false);
  assert.equal(isCompareWebviewToHost({ ...e, effort: '' }), false);
  assert.equal(isCompareWebviewToHost({ ...PAGE_EXAMPLES.openLink, href: 'x'.repeat(4097) }), false);
  assert.equal(isCompareWebviewToHost({ ...PAGE_EXAMPLES.continueInChat, column: 1_000_000 }), false);
  assert.equal(isCompareWebviewToHost({ ...e, rid: -1 }), false);
  assert.equal(isHostToCompareWebview({ ...HOST_EXAMPLES.columnDone, status: 'exploded' }), false);
});
