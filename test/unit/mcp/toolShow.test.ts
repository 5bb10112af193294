/**
 * [#42.4] What a tool answers, shown fully, decided in core (src/core/mcp/toolShow.ts, toolLink.ts,
 * validation.ts, toolRunner.ts) against a real MCP server (test/unit/mcp/showServer.ts): the output
 * schema's verdict on every answer (met, missed, missing, unusable), destructive tools run only after
 * a yes, icons, annotations, instructions and links read as untrusted input, bounded.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpConnection } from '../../../src/core/mcp/mcpClient';
import { runToolCall, type RunnerDeps } from '../../../src/core/mcp/toolRunner';
import { CallHistory, type HistoryEntry } from '../../../src/core/mcp/history';
import { findRefLoop, MAX_SCHEMA_NODES, validateAgainstSchema } from '../../../src/core/mcp/validation';
import { MAX_INSTRUCTIONS_CHARS, MAX_SHOWN_ISSUES, checkOutput, serverInstructions, toolHints, toolIcon } from '../../../src/core/mcp/toolShow';
import { judgeToolLink } from '../../../src/core/mcp/toolLink';
import type { McpTool } from '../../../src/core/mcp/types';
import { PNG_DATA_URI, SHOW_INSTRUCTIONS, startShowServer } from './showServer';
import type { SdkHttpServer } from './sdkHttpServer';

let server: SdkHttpServer;
let conn: McpConnection;
let tools: McpTool[];
before(async () => {
  server = await startShowServer();
  conn = await McpConnection.connect({ url: server.url, fetch: (u, i) => fetch(u, i), getHeaders: async () => ({}), requestTimeoutMs: 10_000 });
  tools = (await conn.listTools()).tools;
});
after(async () => {
  await conn.close();
  await server.close();
});

const tool = (name: string): McpTool => {
  const t = tools.find((x) => x.name === name);
  assert.ok(t, name);
  return t;
};

function deps(over: Partial<RunnerDeps> = {}): RunnerDeps {
  let stored: readonly HistoryEntry[] = [];
  return {
    serverId: 'show',
    serverLabel: 'Show',
    isGateway: false,
    credential: 'custom',
    connection: async () => conn,
    validate: validateAgainstSchema,
    describeError: (e) => ({ message: e instanceof Error ? e.message : String(e) }),
    confirmReadOnlyAbilities: true,
    confirmAbility: async () => true,
    confirmDestructive: async () => true,
    history: new CallHistory({ get: () => stored, set: async (v) => void (stored = v) }),
    ...over,
  };
}

async function run(name: string, args: Record<string, unknown> = {}, over: Partial<RunnerDeps> = {}): Promise<HistoryEntry> {
  const out = await runToolCall(deps(over), tool(name), args);
  assert.equal(out.kind, 'done');
  return (out as { entry: HistoryEntry }).entry;
}
/** tools/call requests the server received so far. */
const calls = (): number => server.methods.filter((m) => m === 'tools/call').length;

describe('[#42.4] structured content against the output schema', () => {
  test('[#42.4] an answer that meets the schema is marked so, and its text is kept', async () => {
    const e = await run('forecast', { city: 'Porto' });
    assert.deepEqual(e.outputValidation, { valid: true, issues: [] });
    assert.deepEqual(e.result?.structuredContent, { city: 'Porto', celsius: 21 });
    assert.deepEqual(e.result?.content, [{ type: 'text', text: 'Porto: 21 °C' }]);
    assert.equal(e.failure, undefined);
  });

  test('[#42.4] a mismatch is recorded with the path and the reason, not turned into a failure and not dropped', async () => {
    const e = await run('forecast_wrong');
    assert.equal(e.outputValidation?.valid, false);
    assert.deepEqual(e.outputValidation?.issues, ['/celsius must be number']);
    assert.equal(e.failure, undefined, 'the call succeeded: the mismatch is a warning on it');
    assert.deepEqual(e.result?.structuredContent, { city: 'Lisbon', celsius: 'warm' });
    assert.deepEqual(e.result?.content, [{ type: 'text', text: 'Lisbon: warm' }]);
  });

  test('[#42.4] a tool with an output schema that sends no structured content gets a verdict saying so', async () => {
    const e = await run('forecast_missing');
    assert.equal(e.outputValidation?.valid, false);
    assert.deepEqual(e.outputValidation?.issues, ['The tool declares an output schema but sent no structured content.']);
    assert.deepEqual(e.result?.content, [{ type: 'text', text: 'Lisbon: 21 °C' }]);
  });

  test('[#42.4] an output schema whose $ref loops is not compiled or run: "not checked", with the reason, at once', async () => {
    const e = await run('forecast_loop');
    assert.equal(e.outputValidation?.valid, false);
    assert.match(e.outputValidation?.notChecked ?? '', /\$ref at \/ leads back to itself/);
    assert.equal(e.failure, undefined);
  });

  test('[#42.4] a tool error is not held to the output schema; a tool without one gets no verdict', () => {
    const t = { outputSchema: { type: 'object', required: ['x'] } };
    assert.equal(checkOutput(t, { content: [], isError: true }, validateAgainstSchema), undefined);
    assert.equal(checkOutput({}, { content: [], structuredContent: { a: 1 } }, validateAgainstSchema), undefined);
  });

  test('[#42.4] many issues: the first ones listed, the rest counted', () => {
    const schema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, { type: 'number' }])) };
    const value = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, 'x']));
    const v = checkOutput({ outputSchema: schema }, { content: [], structuredContent: value }, validateAgainstSchema);
    assert.equal(v?.issues.length, MAX_SHOWN_ISSUES + 1);
    assert.equal(v?.issues.at(-1), '…and 10 more');
  });
});

describe('[#42.4] hostile output schemas: bounded work, never an exception', () => {
  test('[#42.4] $ref loops through $defs, allOf and not are found before compiling; a ref that reads a property is not a loop', () => {
    assert.match(findRefLoop({ $defs: { a: { $ref: '#/$defs/b' }, b: { allOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' }) ?? 'no loop found', /^\/\$defs\//);
    assert.notEqual(findRefLoop({ not: { $ref: '#' } }), undefined);
    assert.equal(findRefLoop({ type: 'object', properties: { child: { $ref: '#' } } }), undefined, 'recursion through a property reads a smaller value each time');
    const r = validateAgainstSchema({ $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' }, {});
    assert.match(r.schemaError ?? '', /leads back to itself/);
  });

  test(`[#42.4] a schema of more than ${MAX_SCHEMA_NODES} parts is not compiled`, () => {
    const huge = { type: 'object', properties: Object.fromEntries(Array.from({ length: MAX_SCHEMA_NODES + 1 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    const r = validateAgainstSchema(huge, {});
    assert.match(r.schemaError ?? '', /more than 20,000 parts/);
  });

  test('[#42.4] a value nested deeper than the stack allows gives "not checked", not an exception', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { child: deep };
    const r = validateAgainstSchema({ type: 'object', properties: { child: { $ref: '#' } } }, deep);
    assert.match(r.schemaError ?? '', /could not be checked/);
  });
});

describe('[#42.4] destructive tools ask first', () => {
  test('[#42.4] a tool marked destructive is sent only after a yes; a no sends nothing', async () => {
    const before = calls();
    const asked: unknown[] = [];
    const no = await runToolCall(deps({ confirmDestructive: async (c) => (asked.push(c), false) }), tool('delete_everything'), { confirm: 'yes' });
    assert.deepEqual(no, { kind: 'notRun', reason: 'Not run: the confirmation was declined.' });
    assert.deepEqual(asked, [{ tool: 'delete_everything', title: 'Delete everything', serverLabel: 'Show', args: { confirm: 'yes' }, marked: true }]);
    assert.equal(calls(), before, 'nothing reached the server');
    const e = await run('delete_everything', {});
    assert.deepEqual(e.result?.content, [{ type: 'text', text: 'Deleted 42 records.' }]);
    assert.equal(calls(), before + 1);
  });

  test('[#42.4] with no way to ask, a destructive tool is not run', async () => {
    const before = calls();
    const out = await runToolCall(deps({ confirmDestructive: undefined }), tool('delete_everything'), {});
    assert.equal(out.kind, 'notRun');
    assert.equal(calls(), before);
  });

  test('[#42.4] a tool with no annotations is destructive by the spec\'s default: asked about (not as marked), a no sends nothing', async () => {
    const before = calls();
    const asked: unknown[] = [];
    const no = await runToolCall(deps({ confirmDestructive: async (c) => (asked.push(c), false) }), tool('links'), {});
    assert.deepEqual(no, { kind: 'notRun', reason: 'Not run: the confirmation was declined.' });
    assert.deepEqual(asked, [{ tool: 'links', serverLabel: 'Show', args: {}, marked: false }]);
    assert.equal(calls(), before, 'nothing reached the server');
    const unasked = await runToolCall(deps({ confirmDestructive: undefined }), tool('links'), {});
    assert.equal(unasked.kind, 'notRun');
    assert.equal(calls(), before);
  });

  test('[#42.4] the gateway\'s documented reads, unmarked, run without a question on the gateway only; its other unmarked tools ask', async () => {
    const ping: McpTool = { name: 'ping', inputSchema: { type: 'object' } };
    const kb: McpTool = { name: 'kb_search', inputSchema: { type: 'object' } };
    const gatewayDeps = (asked: string[]) => deps({ isGateway: true, connection: async () => ({ callTool: async () => ({ result: { content: [] }, durationMs: 1, requestIds: [] }) }) as never, confirmDestructive: async (c) => (asked.push(c.tool), false) });
    const asked: string[] = [];
    assert.equal((await runToolCall(gatewayDeps(asked), ping, {})).kind, 'done');
    assert.equal((await runToolCall(gatewayDeps(asked), kb, {})).kind, 'notRun');
    assert.deepEqual(asked, ['kb_search']);
    assert.equal((await runToolCall(deps({ connection: async () => ({ callTool: async () => ({ result: { content: [] }, durationMs: 1, requestIds: [] }) }) as never, confirmDestructive: async (c) => (asked.push(c.tool), false) }), ping, {})).kind, 'notRun', 'ping of another server asks');
    assert.deepEqual(asked, ['kb_search', 'ping']);
  });

  test('[#42.4] a read-only tool is never asked about', async () => {
    let asked = 0;
    await run('lookup', {}, { confirmDestructive: async () => (asked++, true) });
    assert.equal(asked, 0);
  });
});

describe('[#42.4] annotations, icons and instructions as untrusted input', () => {
  test('[#42.4] annotations count only as real booleans; destructive means nothing on a read-only tool', () => {
    assert.deepEqual(toolHints(tool('delete_everything')), { readOnly: false, destructive: true, idempotent: false, openWorld: true, title: 'Delete everything' });
    assert.deepEqual(toolHints(tool('lookup')), { readOnly: true, destructive: false, idempotent: true, openWorld: false });
    // Not booleans: no marks, so the spec's defaults stand (not read-only, destructive).
    assert.deepEqual(toolHints({ annotations: { readOnlyHint: 'true', destructiveHint: 1, title: ' A\u202E\n title ' } as never }), { readOnly: false, destructive: true, idempotent: false, openWorld: false, title: 'A title' });
    assert.equal(toolHints({ annotations: { readOnlyHint: true, destructiveHint: true } }).destructive, false);
  });

  test('[#42.4] the spec\'s defaults: destructive unless read-only or destructiveHint false; the gateway\'s documented reads are exempt only on the gateway and only unmarked', () => {
    const d = (annotations: Record<string, unknown> | undefined, name = 'x', gateway = false): boolean => toolHints({ name, ...(annotations ? { annotations } : {}) } as never, gateway).destructive;
    assert.equal(d(undefined), true);
    assert.equal(d({}), true);
    assert.equal(d({ readOnlyHint: false }), true);
    assert.equal(d({ destructiveHint: false }), false);
    assert.equal(d({ readOnlyHint: false, destructiveHint: false }), false);
    assert.equal(d({ readOnlyHint: true }), false);
    assert.equal(d({ destructiveHint: 'false' }), true, 'a string is not a mark');
    for (const name of ['ping', 'list_account_sites', 'list_site_abilities', 'search_abilities']) {
      assert.equal(d(undefined, name, true), false, `${name} on the gateway`);
      assert.equal(d(undefined, name, false), true, `${name} elsewhere`);
    }
    assert.equal(d({ destructiveHint: true }, 'ping', true), true, 'the gateway\'s own mark counts');
    assert.equal(d({ readOnlyHint: false }, 'ping', true), true);
    assert.equal(d(undefined, 'kb_search', true), true);
    assert.equal(d(undefined, 'run_site_ability', true), true);
  });

  test('[#42.4] only a data: URI of a raster image is an icon: a remote one or an svg never is', () => {
    assert.equal(toolIcon(tool('lookup')), PNG_DATA_URI, 'the remote icon listed first is skipped');
    assert.equal(toolIcon(tool('delete_everything')), undefined);
    assert.equal(toolIcon({ icons: [{ src: PNG_DATA_URI, mimeType: 'image/gif' }] }), undefined, 'a mime type that disagrees');
    assert.equal(toolIcon({ icons: [{ src: `data:image/png;base64,${'A'.repeat(70_000)}` }] }), undefined, 'too large');
    assert.equal(toolIcon({ icons: [{ src: 'data:image/png;base64,AAA=" onerror="x' }] }), undefined);
    assert.equal(toolIcon({ icons: 'nope' as never }), undefined);
  });

  test('[#42.4] the server\'s instructions from initialize are kept on the connection and shown as bounded plain text', () => {
    assert.equal(conn.server.instructions, SHOW_INSTRUCTIONS);
    const shown = serverInstructions(conn.server.instructions);
    assert.ok(shown);
    assert.equal(shown.length, MAX_INSTRUCTIONS_CHARS);
    assert.ok(shown.startsWith('Call lookup before forecast. txt.exe\n\n<b>Bold</b>'), shown.slice(0, 80));
    assert.ok(shown.endsWith('…'));
    assert.equal(serverInstructions('  \u0007 '), undefined);
    assert.equal(serverInstructions({ text: 'x' }), undefined);
  });
});

describe('[#42.4] links from a tool result', () => {
  test('[#42.4] a resource link and an embedded resource reach the result as sent', async () => {
    const e = await run('links');
    assert.deepEqual(e.result?.content.map((b) => b.type), ['resource_link', 'resource_link', 'resource']);
  });

  test('[#42.4] only http(s) opens, after a confirmation naming the host; loopback, private and plain http are named; credentials refused', () => {
    assert.deepEqual(judgeToolLink('https://docs.example.com/a?b=1'), { kind: 'confirm', url: new URL('https://docs.example.com/a?b=1'), host: 'docs.example.com' });
    const local = judgeToolLink('http://127.0.0.1:9/admin');
    assert.equal(local.kind, 'confirm');
    assert.equal(local.kind === 'confirm' && local.host, '127.0.0.1:9');
    assert.match(local.kind === 'confirm' ? (local.warning ?? '') : '', /this computer or a private network .*plain http/);
    for (const u of ['https://10.1.2.3/', 'https://localhost:8443/', 'https://[::1]/', 'https://169.254.169.254/latest', 'https://2130706433/']) {
      const v = judgeToolLink(u);
      assert.match(v.kind === 'confirm' ? (v.warning ?? '') : v.kind, /private network/, u);
    }
    assert.equal(judgeToolLink('https://user:pw@example.com/').kind, 'refuse');
    assert.equal(judgeToolLink(`https://example.com/${'a'.repeat(5000)}`).kind, 'refuse');
    for (const u of ['javascript:alert(1)', 'kb://col_docs/doc_intro', 'file:///etc/passwd', 'command:workbench.action.quit', 'not a url']) assert.equal(judgeToolLink(u).kind, 'copy', u);
  });
});
