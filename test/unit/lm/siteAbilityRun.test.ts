/**
 * The decisions of the aiGateway_runSiteAbility language model tool (src/core/lm/siteAbilityRun.ts),
 * with a real MCP session against the local gateway, a scripted user and an in-memory ledger.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { runSiteAbility, RUN_AGAIN_LABEL, RUN_LABEL, type AbilityCredentials, type ConfirmPrompt, type SiteAbilityDeps } from '../../../src/core/lm/siteAbilityRun';
import { McpConnection } from '../../../src/core/mcp/mcpClient';
import { OutcomeLedger, type OutcomeUnknownEntry } from '../../../src/core/mcp/outcomeLedger';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { startGateway, type RunningGateway } from '../../localGateway/server';

let gw: RunningGateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw.close();
});
beforeEach(() => gw.reset());

/** run_site_ability calls that reached the gateway. */
const runsAtGateway = (): number => gw.events.list('mcp-dispatch').filter((e) => e.method === 'tools/call' && e.tool === 'run_site_ability').length;

interface Harness {
  deps: SiteAbilityDeps;
  prompts: ConfirmPrompt[];
  /** The user's answers, in order: true = picked the run button. */
  answers: boolean[];
  entries: () => OutcomeUnknownEntry[];
  connects: () => number;
}

function harness(opts: { answers?: boolean[]; credentials?: AbilityCredentials; key?: string; connect?: () => Promise<never> } = {}): Harness {
  let stored: OutcomeUnknownEntry[] | undefined;
  const ledger = new OutcomeLedger({ get: () => stored, set: (e) => void (stored = e) });
  const prompts: ConfirmPrompt[] = [];
  const answers = opts.answers ?? [];
  let connects = 0;
  const deps: SiteAbilityDeps = {
    ledger,
    credentials: async () => opts.credentials ?? { kind: 'ready', credential: 'user' },
    confirm: async (p) => {
      prompts.push(p);
      return answers.shift() ?? false;
    },
    connect: async () => {
      connects++;
      if (opts.connect) return opts.connect();
      const conn = await McpConnection.connect({ url: `${gw.url}/v1/mcp`, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({ Authorization: `Bearer ${opts.key ?? LOCAL_KEYS.userFull}` }) });
      return { callTool: (args, signal) => conn.callTool('run_site_ability', args, { signal }), close: () => conn.close() };
    },
  };
  return { deps, prompts, answers, entries: () => stored ?? [], connects: () => connects };
}

const signal = (): AbortSignal => new AbortController().signal;
const PUBLISH = { site_id: 'site_blog', ability: 'core/create-post', input: { title: 'Launch', status: 'publish', note: '[[ambiguous]]' } };

describe('site-ability tool for VS Code agent mode', () => {
  test('asks before every run, naming site, ability and arguments; runs only after yes', async () => {
    const h = harness({ answers: [true, true] });
    const call = { site_id: 'site_blog', ability: 'core/get-site-info', input: {} };
    const first = await runSiteAbility(call, h.deps, signal());
    assert.equal(first.outcome, 'done');
    assert.match(first.text, /Team Blog/);
    const second = await runSiteAbility(call, h.deps, signal());
    assert.equal(second.outcome, 'done');
    assert.equal(h.prompts.length, 2, 'asked for each call, also for the identical second one');
    assert.equal(h.prompts[0]?.action, RUN_LABEL);
    assert.match(h.prompts[0]?.detail ?? '', /Site: site_blog\nAbility: core\/get-site-info\nArguments:\n\{\}/);
    assert.equal(runsAtGateway(), 2);
  });

  test('Deny sends a refusal and nothing reaches the gateway', async () => {
    const h = harness({ answers: [false] });
    const r = await runSiteAbility({ site_id: 'site_blog', ability: 'core/create-post', input: { title: 'Hi' } }, h.deps, signal());
    assert.equal(r.outcome, 'declined');
    assert.match(r.text, /^Not run: the user declined/);
    assert.match(r.text, /Do not retry/);
    assert.equal(h.prompts.length, 1);
    assert.equal(h.connects(), 0);
    assert.equal(runsAtGateway(), 0);
  });

  test('[G-MCP-13] an ambiguous_outcome is recorded, and the identical repeat is refused unless the user picks Run Again Anyway', async () => {
    const h = harness({ answers: [true, false] });
    const first = await runSiteAbility(PUBLISH, h.deps, signal());
    assert.equal(first.outcome, 'ambiguous');
    assert.match(first.text, /^ambiguous_outcome: .*Do NOT retry/);
    assert.equal(h.entries().length, 1);
    assert.equal(h.entries()[0]?.site, 'site_blog');
    assert.ok(h.entries()[0]?.requestId, 'the request id of the uncertain write is kept');
    assert.equal(runsAtGateway(), 1);

    // The agent repeats the identical call (keys in another order): the user is warned and says no.
    const repeat = { input: { note: '[[ambiguous]]', status: 'publish', title: 'Launch' }, ability: 'core/create-post', site_id: 'site_blog' };
    const refused = await runSiteAbility(repeat, h.deps, signal());
    assert.equal(refused.outcome, 'declined-repeat');
    assert.match(refused.text, /unknown outcome .*Do not retry/);
    assert.equal(h.prompts[1]?.action, RUN_AGAIN_LABEL);
    assert.match(h.prompts[1]?.question ?? '', /UNKNOWN outcome: it may already have happened/);
    assert.match(h.prompts[1]?.detail ?? '', new RegExp(`Earlier request id: ${h.entries()[0]?.requestId ?? '?'}`));
    assert.equal(runsAtGateway(), 1, 'the refused repeat never reached the gateway');

    // Only an explicit Run Again Anyway sends it again.
    h.answers.push(true);
    const again = await runSiteAbility(repeat, h.deps, signal());
    assert.equal(again.outcome, 'ambiguous');
    assert.equal(h.prompts[2]?.action, RUN_AGAIN_LABEL);
    assert.equal(runsAtGateway(), 2);
  });

  test('[G-MCP-13] a call with other arguments is not refused as a repeat', async () => {
    const h = harness({ answers: [true, true] });
    assert.equal((await runSiteAbility(PUBLISH, h.deps, signal())).outcome, 'ambiguous');
    const other = { ...PUBLISH, input: { title: 'Launch', status: 'draft' } };
    const r = await runSiteAbility(other, h.deps, signal());
    assert.equal(r.outcome, 'done');
    assert.equal(h.prompts[1]?.action, RUN_LABEL, 'an ordinary question, not the repeat warning');
    assert.equal(h.prompts[1]?.earlier, undefined);
    assert.equal((await runSiteAbility({ ...PUBLISH, site_id: 'site_shop' }, h.deps, signal())).outcome, 'declined', 'another site is another call');
    assert.equal(h.prompts[2]?.action, RUN_LABEL);
  });

  test('[G-MCP-13] a call that fails after the session opened is recorded as outcome-unknown', async () => {
    const h = harness({ answers: [true, false] });
    h.deps.connect = async () => ({
      callTool: async () => {
        throw new Error('socket hang up');
      },
      close: () => undefined,
    });
    const r = await runSiteAbility(PUBLISH, h.deps, signal());
    assert.equal(r.outcome, 'unknown-after-send');
    assert.match(r.text, /^Outcome unknown: .*socket hang up.*Do not retry/);
    assert.equal(h.entries().length, 1);
    assert.equal((await runSiteAbility(PUBLISH, h.deps, signal())).outcome, 'declined-repeat');
  });

  test('a connection that never opened sent nothing: not recorded, an ordinary question next time', async () => {
    const h = harness({ answers: [true, false], connect: async () => Promise.reject(new Error('ECONNREFUSED')) });
    const r = await runSiteAbility(PUBLISH, h.deps, signal());
    assert.equal(r.outcome, 'not-sent');
    assert.match(r.text, /^Not run: could not reach .*ECONNREFUSED/);
    assert.deepEqual(h.entries(), []);
    await runSiteAbility(PUBLISH, h.deps, signal());
    assert.equal(h.prompts[1]?.action, RUN_LABEL);
  });

  test('[G-MCP-10] with an Account key the call is refused before the user is asked', async () => {
    const h = harness({ answers: [true], credentials: { kind: 'ready', credential: 'account' } });
    const r = await runSiteAbility(PUBLISH, h.deps, signal());
    assert.equal(r.outcome, 'account-key');
    assert.match(r.text, /User key/);
    assert.equal(h.prompts.length, 0);
    assert.equal(h.connects(), 0);
  });

  test('no credentials, or no site or ability: refused before the user is asked', async () => {
    const h = harness({ answers: [true, true], credentials: { kind: 'missing', why: 'add an API key.' } });
    assert.deepEqual(await runSiteAbility(PUBLISH, h.deps, signal()), { outcome: 'no-credentials', text: 'Not run: add an API key.' });
    const h2 = harness({ answers: [true] });
    assert.equal((await runSiteAbility({ ability: 'core/create-post' }, h2.deps, signal())).outcome, 'invalid');
    assert.equal((await runSiteAbility(null, h2.deps, signal())).outcome, 'invalid');
    assert.equal(h.prompts.length + h2.prompts.length, 0);
  });

  test('a tool error other than ambiguous_outcome is reported with its advice and not recorded', async () => {
    const h = harness({ answers: [true] });
    const r = await runSiteAbility({ site_id: 'site_shop', ability: 'core/create-post', input: { title: 'x' } }, h.deps, signal());
    assert.equal(r.outcome, 'tool-error');
    assert.match(r.text, /^unauthorized: .*connect your WordPress account/);
    assert.deepEqual(h.entries(), []);
  });

  test('long arguments are cut in what the user is shown, with the rest counted', async () => {
    const h = harness({ answers: [false] });
    await runSiteAbility({ site_id: 'site_blog', ability: 'core/create-post', input: { body: 'x'.repeat(5000) } }, h.deps, signal());
    const detail = h.prompts[0]?.detail ?? '';
    assert.ok(detail.length < 2300, String(detail.length));
    assert.match(detail, /… \(\d+ more characters\)$/);
  });
});
