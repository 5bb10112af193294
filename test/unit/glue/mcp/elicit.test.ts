/**
 * [#42.2] Elicitation in the editor (src/platform/mcpElicit.ts) against the vscode double: the form
 * built from a server's schema with the step inputs, decline and cancel, password fields, URL mode
 * behind a modal, hostile schemas; and McpService passing the handler to a server the user added (a
 * real SDK server over Streamable HTTP, as in test/unit/mcp/elicitation.test.ts).
 */
import { double, type Shown } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { elicitHandlerFor, MAX_FIELDS } from '../../../../src/platform/mcpElicit';
import type { ElicitRequest } from '../../../../src/core/mcp/mcpClient';
import type { Logger } from '../../../../src/core/log';
import { Services } from '../../../../src/services';
import { McpService } from '../../../../src/platform/mcpService';
import { customServerId, GATEWAY_SERVER_ID, type ServerEntry } from '../../../../src/platform/mcpServers';
import { LOCAL_KEYS } from '../../../localGateway/keys';
import type { DoubleExtensionContext } from '../../vscodeDouble';
import { startSdkServer, type SdkHttpServer } from '../../mcp/sdkHttpServer';

const lines: string[] = [];
const log: Logger = { trace: (m) => lines.push(m), debug: (m) => lines.push(m), info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) };
const ask = (req: ElicitRequest) => elicitHandlerFor('Acme Tools', log)(req, new AbortController().signal);

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', default: 'Ada' },
    count: { type: 'integer', minimum: 1, maximum: 9, default: 3 },
    ok: { type: 'boolean', default: true },
    color: { type: 'string', enum: ['red', 'blue'], default: 'blue' },
  },
  required: ['name'],
};
const form = (requestedSchema: Record<string, unknown> = SCHEMA, message = 'Who are you?'): ElicitRequest => ({ mode: 'form', message, requestedSchema });
const url = (u: string): ElicitRequest => ({ mode: 'url', message: 'Connect your account', url: u, elicitationId: 'e-1' });

/** An answer that accepts what the input shows pre-filled or highlighted (Enter). */
const enter = (s: Shown): unknown => {
  const input = (s as unknown as { input: { value: string; activeItems?: Array<{ label: string }> } }).input;
  return s.kind === 'quickPick' ? input.activeItems?.[0]?.label : input.value;
};

beforeEach(() => {
  double.reset();
  lines.length = 0;
});

describe('[#42.2] elicitation form', () => {
  test('[#42.2] Answer then Enter on every step accepts the schema defaults; the steps show the server, its message, the field titles', async () => {
    double.answer(enter, enter, enter, enter, enter);
    const a = await ask(form());
    assert.deepEqual(a, { action: 'accept', content: { name: 'Ada', count: 3, ok: true, color: 'blue' } });
    const shown = double.shown as Array<Shown & { options: Record<string, unknown> }>;
    assert.equal(shown.length, 5);
    assert.equal(shown[0]!.options.title, 'Acme Tools asks for input');
    assert.equal(shown[0]!.options.placeholder, 'Who are you?');
    assert.deepEqual((shown[0] as { labels: string[] }).labels, ['Answer', 'Decline']);
    assert.match(String(shown[1]!.options.prompt), /^Your name/);
    assert.equal(shown[1]!.options.value, 'Ada');
    assert.equal(shown[2]!.options.value, '3');
    assert.deepEqual([shown[1]!.options.step, shown[4]!.options.totalSteps], [2, 5]);
  });

  test('[#42.2] typed values are converted to the schema types; an enum is picked from its values', async () => {
    double.answer('Answer', 'Grace', '7', 'No', 'red');
    assert.deepEqual(await ask(form()), { action: 'accept', content: { name: 'Grace', count: 7, ok: false, color: 'red' } });
  });

  test('[#42.2] a value of the wrong type or out of bounds is refused with a message; a required field cannot be left empty', async () => {
    const problems: string[] = [];
    const tryValue = (text: string) => (s: Shown) => {
      const box = (s as unknown as { input: { value: string; validationMessage?: unknown } }).input;
      box.value = text;
      problems.push(String(box.validationMessage ?? ''));
      return undefined; // then Escape
    };
    for (const [field, text] of [
      [1, ''],
      [2, 'many'],
      [2, '2.5'],
      [2, '10'],
    ] as const) {
      double.reset();
      double.answer('Answer', ...(field === 2 ? ['Ada'] : []), tryValue(text));
      assert.deepEqual(await ask(form()), { action: 'cancel' });
    }
    assert.deepEqual(problems, ['Your name is required.', 'Enter a number.', 'Enter a whole number.', 'Enter at most 9.']);
  });

  test('[#42.2] Decline answers decline; Escape on any step answers cancel, with no content', async () => {
    double.answer('Decline');
    assert.deepEqual(await ask(form()), { action: 'decline' });
    double.reset();
    double.answer(undefined);
    assert.deepEqual(await ask(form()), { action: 'cancel' });
    double.reset();
    double.answer('Answer', 'Grace', '4', undefined);
    assert.deepEqual(await ask(form()), { action: 'cancel' });
  });

  test('[#42.2] a password field (format, or a name like token) is asked in a password box and its value is never logged', async () => {
    const schema = { type: 'object', properties: { user: { type: 'string' }, pin: { type: 'string', format: 'password' }, apiToken: { type: 'string' } } };
    double.answer('Answer', 'ann', 'hunter2-pin', 'tok-SECRET-1');
    assert.deepEqual(await ask(form(schema)), { action: 'accept', content: { user: 'ann', pin: 'hunter2-pin', apiToken: 'tok-SECRET-1' } });
    const boxes = double.shown.filter((s) => s.kind === 'inputBox').map((s) => s.options.password);
    assert.deepEqual(boxes, [false, true, true]);
    assert.ok(lines.length > 0);
    assert.ok(!lines.some((l) => l.includes('hunter2') || l.includes('SECRET')), lines.join('\n'));
  });

  test('[#42.2] hostile input: more than MAX_FIELDS fields, a nested object or a list without choices is declined with a note in the log, the user told why, and no form shown; a long message is cut', async () => {
    const many = { type: 'object', properties: Object.fromEntries(Array.from({ length: MAX_FIELDS + 1 }, (_, i) => [`f${i}`, { type: 'string' }])) };
    const nested = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } } } };
    const array = { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } };
    for (const s of [many, nested, array]) assert.deepEqual(await ask(form(s)), { action: 'decline' });
    assert.deepEqual(
      double.shown.map((s) => s.kind),
      ['message', 'message', 'message'],
      'only the warnings: no quick input',
    );
    assert.deepEqual(
      double.shown.map((s) => (s as Shown & { kind: 'message' }).message),
      [
        'Acme Tools asked for input with a form this editor cannot show, so the server was told no. The requested form has 21 fields; at most 20 are asked.',
        'Acme Tools asked for input with a form this editor cannot show, so the server was told no. Field a has type "object", which this form cannot ask.',
        'Acme Tools asked for input with a form this editor cannot show, so the server was told no. Field a is a list without choices, which this form cannot ask.',
      ],
    );
    assert.equal(lines.filter((l) => /Acme Tools .*declined/.test(l)).length, 3);
    double.reset();
    double.answer(undefined);
    await ask(form(SCHEMA, 'x'.repeat(10_000)));
    assert.ok(String((double.shown[0]!.options as Record<string, unknown>).placeholder).length <= 500);
  });
});

const MULTI = {
  type: 'object',
  properties: {
    tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: ['alpha', 'beta', 'gamma'] }, minItems: 1, maxItems: 2, default: ['beta'] },
    sizes: { type: 'array', title: 'Sizes', items: { anyOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] } },
  },
  required: ['tags'],
};

describe('[#42.2] elicitation multi-select and string formats', () => {
  test('[#42.2] a multi-select is a pick with check boxes: its defaults checked, titled choices by their titles, the checked values sent as a list in the order of the choices', async () => {
    double.answer('Answer', ['gamma', 'alpha'], ['Large']);
    assert.deepEqual(await ask(form(MULTI)), { action: 'accept', content: { tags: ['alpha', 'gamma'], sizes: ['l'] } });
    const picks = double.shown.filter((x) => x.kind === 'quickPick') as Array<Shown & { labels: string[]; options: Record<string, unknown> }>;
    assert.equal(picks[1]!.options.canSelectMany, true);
    assert.deepEqual(picks[1]!.options.selectedLabels, ['beta']);
    assert.deepEqual(picks[1]!.labels, ['alpha', 'beta', 'gamma']);
    assert.match(String(picks[1]!.options.placeholder), /^Tags \(Down Arrow, then Space checks; Enter goes on\.\)$/);
    assert.deepEqual(picks[2]!.labels, ['Small', 'Large']);
    assert.deepEqual(picks[2]!.options.selectedLabels, []);
  });

  test('[#42.2] Enter on the defaults accepts them; an optional multi-select with nothing checked is sent as an empty list', async () => {
    double.answer('Answer', ['beta'], []);
    assert.deepEqual(await ask(form(MULTI)), { action: 'accept', content: { tags: ['beta'], sizes: [] } });
  });

  test('[#42.2] keyboard: Space toggles a choice, an Enter outside minItems/maxItems keeps the pick open with the reason, Enter within them goes on; Escape cancels', async () => {
    double.driveQuickPicks();
    const answer = ask(form({ type: 'object', properties: MULTI.properties, required: ['tags'] }));
    const nth = async (n: number) => {
      for (let i = 0; i < 200 && (double.createdQuickPicks.length <= n || !double.createdQuickPicks[n]!.visible); i++) await new Promise((r) => setImmediate(r));
      return double.createdQuickPicks[n]!;
    };
    (await nth(0)).accept('Answer');
    const tags = await nth(1);
    assert.equal(tags.canSelectMany, true);
    assert.deepEqual(tags.selectedItems.map((i) => i.label), ['beta'], 'the default is checked');
    tags.toggle('beta');
    assert.deepEqual(tags.selectedItems, []);
    tags.enter();
    assert.equal(tags.visible, true, 'an empty required choice with minItems 1 is refused');
    assert.match(String(tags.placeholder), /^Choose at least 1\. Tags/);
    tags.toggle('alpha');
    assert.match(String(tags.placeholder), /^Tags/, 'the reason goes once the choice is acceptable');
    tags.toggle('beta');
    tags.toggle('gamma');
    tags.enter();
    assert.equal(tags.visible, true, 'three checked, at most two allowed');
    assert.match(String(tags.placeholder), /^Choose at most 2\. /);
    tags.toggle('alpha');
    tags.enter();
    assert.equal(tags.disposed, true);
    const sizes = await nth(2);
    sizes.hide();
    assert.deepEqual(await answer, { action: 'cancel' });
  });

  test('[#42.2] single select: enumNames (legacy) and oneOf titles are shown, the values sent', async () => {
    const schema = {
      type: 'object',
      properties: {
        plan: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Basic', 'Pro'], default: 'p2' },
        region: { type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'United States' }] },
      },
      required: ['plan', 'region'],
    };
    double.answer('Answer', enter, 'Europe');
    assert.deepEqual(await ask(form(schema)), { action: 'accept', content: { plan: 'p2', region: 'eu' } });
    const picks = double.shown.filter((x) => x.kind === 'quickPick') as Array<Shown & { labels: string[] }>;
    assert.deepEqual(picks[1]!.labels, ['Basic', 'Pro']);
    assert.deepEqual(picks[2]!.labels, ['Europe', 'United States']);
  });

  test('[#42.2] string formats: the box shows what to type, a value not of the format is refused with a clear message, a valid one is sent', async () => {
    const schema = {
      type: 'object',
      properties: {
        mail: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
      },
      required: ['mail', 'site', 'day', 'at'],
    };
    const problems: string[] = [];
    const typeThen = (bad: string, good: string) => (x: Shown) => {
      const box = (x as unknown as { input: { value: string; validationMessage?: unknown } }).input;
      box.value = bad;
      problems.push(String(box.validationMessage ?? ''));
      box.value = good;
      return good;
    };
    double.answer('Answer', typeThen('ada@', 'ada@example.com'), typeThen('example.com/page', 'https://example.com/page'), typeThen('2026-02-29', '2028-02-29'), typeThen('2026-11-29 14:00', '2026-11-29T14:00:00+01:00'));
    assert.deepEqual(await ask(form(schema)), { action: 'accept', content: { mail: 'ada@example.com', site: 'https://example.com/page', day: '2028-02-29', at: '2026-11-29T14:00:00+01:00' } });
    assert.deepEqual(problems, [
      'Enter an email address, such as name@example.com.',
      'Enter an address with its scheme, such as https://example.com/page.',
      'Enter a date as YYYY-MM-DD, such as 2026-11-29.',
      'Enter a date and time as YYYY-MM-DDTHH:MM:SS with Z or an offset, such as 2026-11-29T14:00:00Z.',
    ]);
    const boxes = double.shown.filter((x) => x.kind === 'inputBox') as Array<Shown & { options: Record<string, unknown> }>;
    assert.equal(boxes[0]!.options.placeholder, 'an email address, such as name@example.com');
    assert.equal(boxes[2]!.options.placeholder, 'a date as YYYY-MM-DD, such as 2026-11-29');
    assert.deepEqual(boxes.map((b) => b.options.password), [false, false, false, false]);
  });

  test('[#42.2] a format or rule the form cannot check is declined, and the user is told which field and why', async () => {
    const ipv4 = { type: 'object', properties: { host: { type: 'string', format: 'ipv4' } } };
    const pattern = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } };
    assert.deepEqual(await ask(form(ipv4)), { action: 'decline' });
    assert.deepEqual(await ask(form(pattern)), { action: 'decline' });
    assert.deepEqual(
      double.shown.map((x) => (x.kind === 'message' ? x.message : x.kind)),
      [
        'Acme Tools asked for input with a form this editor cannot show, so the server was told no. Field host has a rule (format "ipv4") that this form cannot check.',
        'Acme Tools asked for input with a form this editor cannot show, so the server was told no. Field code has a rule (pattern) that this form cannot check.',
      ],
    );
  });
});

describe('[#42.2] elicitation URL mode', () => {
  test("[#42.2] the modal names the server and the URL's host, Don't Open is the default, and nothing opens without Open", async () => {
    double.answer("Don't Open");
    assert.deepEqual(await ask(url('https://auth.example.com/connect?x=1')), { action: 'decline' });
    double.answer(undefined);
    assert.deepEqual(await ask(url('https://auth.example.com/connect?x=1')), { action: 'decline' });
    assert.equal(double.openedExternal.length, 0);
    const m = double.shown[0] as Shown & { kind: 'message' };
    assert.equal(m.message, 'Acme Tools asks you to open auth.example.com');
    assert.equal(m.options.modal, true);
    assert.equal(m.defaultTitle, "Don't Open");
    double.answer('Open in Browser');
    assert.deepEqual(await ask(url('https://auth.example.com/connect?x=1')), { action: 'accept' });
    assert.deepEqual(
      double.openedExternal.map((u) => u.toString(true)),
      ['https://auth.example.com/connect?x=1'],
    );
    // A query that carries a URL of its own reaches the browser as the server wrote it (not decoded and re-encoded).
    const nested = 'https://auth.example.com/connect?next=https%3A%2F%2Fapp.example%2Fdone%3Fa%3D1%26b%3D2';
    double.answer('Open in Browser');
    assert.deepEqual(await ask(url(nested)), { action: 'accept' });
    assert.equal(double.openedExternalText.at(-1), nested);
  });

  test('[#42.2] a URL with a user name or password is declined without asking; one to this computer or a private network, or plain http, is asked with that warning', async () => {
    assert.deepEqual(await ask(url('https://user:secret@auth.example.com/connect')), { action: 'decline' });
    assert.equal(double.shown.length, 0);
    assert.ok(lines.some((l) => /Acme Tools .*user name or password.*declined/.test(l)), lines.join('\n'));
    assert.ok(!lines.some((l) => l.includes('secret')), 'the password is not logged');
    double.answer("Don't Open");
    assert.deepEqual(await ask(url('http://127.0.0.1:8080/admin')), { action: 'decline' });
    const m = double.shown.at(-1) as Shown & { kind: 'message' };
    assert.match(m.options.detail ?? '', /points at this computer or a private network/);
    assert.match(m.options.detail ?? '', /plain http/);
    assert.equal(m.defaultTitle, "Don't Open");
    assert.equal(double.openedExternal.length, 0);
  });

  test('[#42.2] a URL that is not http(s) is declined without asking or opening', async () => {
    for (const u of ['file:///etc/passwd', 'javascript:alert(1)', 'vscode://settings', 'not a url']) assert.deepEqual(await ask(url(u)), { action: 'decline' });
    assert.equal(double.shown.length, 0);
    assert.equal(double.openedExternal.length, 0);
  });
});

describe('[#42.2] McpService passes the handler to servers the user added', () => {
  let server: SdkHttpServer;
  let serverUrl = '';
  const seen: Array<{ caps: unknown; answer: unknown }> = [];
  before(async () => {
    server = await startSdkServer({ name: 'elicit-glue', version: '1' }, (s) => {
      s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'ask', inputSchema: { type: 'object' } }, { name: 'askTags', inputSchema: { type: 'object' } }] }));
      s.setRequestHandler(CallToolRequestSchema, async (r) => {
        const caps = s.getClientCapabilities()?.elicitation;
        if (!caps) {
          seen.push({ caps, answer: undefined });
          return { content: [{ type: 'text', text: 'not asked' }] };
        }
        const requestedSchema =
          r.params.name === 'askTags'
            ? { type: 'object' as const, properties: { tags: { type: 'array' as const, items: { anyOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }] }, maxItems: 2 }, mail: { type: 'string' as const, format: 'email' as const } }, required: ['tags'] }
            : { type: 'object' as const, properties: { color: { type: 'string' as const, enum: ['red', 'blue'], default: 'blue' } } };
        const answer = await s.request({ method: 'elicitation/create', params: { message: 'Pick a color', requestedSchema } }, ElicitResultSchema);
        seen.push({ caps, answer });
        return { content: [{ type: 'text', text: 'ok' }] };
      });
    });
    serverUrl = server.url;
  });
  after(() => server.close());

  let services: Services;
  let service: McpService;
  beforeEach(() => {
    const ctx: DoubleExtensionContext = double.extensionContext();
    services = new Services(ctx as unknown as vscode.ExtensionContext);
    service = new McpService(services);
  });
  afterEach(() => {
    service.dispose();
    services.dispose();
  });

  test('[#42.2] the client of a user-added server declares elicitation, and the user’s form answer reaches the server', async () => {
    const entry: ServerEntry = { id: customServerId(serverUrl), label: 'Colors', url: serverUrl, kind: 'custom', headers: {}, secretHeaders: [] };
    seen.length = 0;
    double.answer('Answer', 'red');
    const conn = await service.connection(entry);
    await conn.callTool('ask', {});
    assert.deepEqual(seen[0], { caps: { form: { applyDefaults: true }, url: {} }, answer: { action: 'accept', content: { color: 'red' } } });
    assert.equal((double.shown[0] as { options: Record<string, unknown> }).options.title, 'Colors asks for input');
  });

  test('[#42.2] a multi-select and an email field travel through the SDK: the server gets the list of values and the address', async () => {
    const entry: ServerEntry = { id: customServerId(serverUrl), label: 'Colors', url: serverUrl, kind: 'custom', headers: {}, secretHeaders: [] };
    seen.length = 0;
    double.answer('Answer', ['Beta', 'Alpha'], 'ada@example.com');
    const conn = await service.connection(entry);
    await conn.callTool('askTags', {});
    assert.deepEqual(seen[0]?.answer, { action: 'accept', content: { tags: ['a', 'b'], mail: 'ada@example.com' } });
  });

  test('[#42.2] the gateway\'s own /v1/mcp gets no handler: its client does not declare elicitation', async () => {
    seen.length = 0;
    // The key store echoes its keychain write (which resets connections): wait for it before connecting.
    const echoed = new Promise<void>((resolve) => {
      const sub = services.keys.onDidChange((e) => {
        if (e.reason === 'external') {
          sub.dispose();
          resolve();
        }
      });
    });
    await services.keys.add('Local', LOCAL_KEYS.userFull, { activate: true });
    await echoed;
    const gateway: ServerEntry = { id: GATEWAY_SERVER_ID, label: 'AI Gateway', url: serverUrl, kind: 'gateway', headers: {}, secretHeaders: [] };
    const conn = await service.connection(gateway);
    await conn.callTool('ask', {});
    assert.deepEqual(seen, [{ caps: undefined, answer: undefined }]);
    assert.equal(double.shown.length, 0);
  });
});
