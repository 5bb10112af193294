// @ts-check
/**
 * A test-only extension, installed next to the AI Gateway VSIX by the end-to-end tier
 * (test/e2e/harness.ts). It uses nothing but VS Code's public language model API, as any other
 * extension (or VS Code's own chat) would, and writes what it saw to
 * <workspace>/lm-probe-results.json for test/e2e/nativeChat.e2e.ts to check. It records facts
 * rather than judging them: the journey holds the expectations.
 */
/* global require, module, TextEncoder */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const vscode = require('vscode');

const VENDOR = 'ai-gateway';
const TOOL_MODEL = 'openai/gpt-5.1';
const MESSAGES_MODEL = 'anthropic/claude-sonnet-4';
const RESULTS_FILE = 'lm-probe-results.json';

/** Reads a response stream into text and tool-call parts; `onPart` may cancel. */
async function collect(response, onPart) {
  let text = '';
  const calls = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push({ callId: part.callId, name: part.name, input: part.input });
    if (onPart) onPart(part);
  }
  return { text, calls };
}

function describeError(e) {
  return { name: e && e.name, code: e && e.code, message: String((e && e.message) || e) };
}

async function step(results, name, fn) {
  try {
    results[name] = { ok: true, value: await fn() };
  } catch (e) {
    results[name] = { ok: false, error: describeError(e) };
  }
}

function describeMcp(defs) {
  return { available: true, labels: defs.map((d) => d.label), uris: defs.map((d) => (d.uri ? String(d.uri) : undefined)), versions: defs.map((d) => d.version) };
}

async function writeResults(name, results) {
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!folder) throw new Error('The probe needs an open folder to write its results');
  const target = vscode.Uri.joinPath(folder.uri, name);
  // Written aside and renamed, so the journey never reads a half-written file.
  const temp = vscode.Uri.joinPath(folder.uri, `${name}.tmp`);
  await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(JSON.stringify(results, null, 2)));
  await vscode.workspace.fs.rename(temp, target, { overwrite: true });
}

/** Only the MCP server definitions (after a key switch, say). */
async function listMcp() {
  const defs = /** @type {any} */ (vscode.lm).mcpServerDefinitions;
  await writeResults('mcp-probe-results.json', Array.isArray(defs) ? describeMcp(defs) : { available: false });
}

/**
 * Starts the MCP servers VS Code knows (ours comes from the extension's definition provider) the way
 * the MCP view's "Start Server" does, waits for their live tools, then lists every language model
 * tool VS Code offers an agent (built-in, MCP and extension tools alike).
 */
async function mcpTools() {
  const results = {};
  await step(results, 'start', async () => {
    await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
    return true;
  });
  await step(results, 'tools', async () => vscode.lm.tools.map((t) => ({ name: t.name, tags: t.tags, source: t.source ? String(t.source.label || t.source.name || '') : undefined })));
  await writeResults('mcp-tools-probe-results.json', results);
}

async function run() {
  const results = { startedAt: new Date().toISOString() };
  const token = () => new vscode.CancellationTokenSource().token;
  let models = [];
  await step(results, 'models', async () => {
    models = await vscode.lm.selectChatModels({ vendor: VENDOR });
    return models.map((m) => ({
      id: m.id,
      name: m.name,
      vendor: m.vendor,
      family: m.family,
      maxInputTokens: m.maxInputTokens,
      capabilities: m.capabilities,
    }));
  });
  const model = models.find((m) => m.id === TOOL_MODEL);
  const U = vscode.LanguageModelChatMessage.User;
  const A = vscode.LanguageModelChatMessage.Assistant;

  await step(results, 'text', async () => {
    if (!model) throw new Error(`no model ${TOOL_MODEL}`);
    return collect(await model.sendRequest([U('Hello from the probe')], {}, token()));
  });

  const weatherTool = {
    name: 'get_weather',
    description: 'The weather in a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  };
  const ask = 'Weather in Oslo? [[tool:get_weather {"city":"Oslo"}]]';
  await step(results, 'toolCall', async () => {
    if (!model) throw new Error(`no model ${TOOL_MODEL}`);
    const first = await collect(await model.sendRequest([U(ask)], { tools: [weatherTool] }, token()));
    const call = first.calls[0];
    if (!call) return { first };
    const followUp = [
      U(ask),
      A([new vscode.LanguageModelToolCallPart(call.callId, call.name, call.input)]),
      U([new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('sunny, 21 C')])]),
    ];
    const second = await collect(await model.sendRequest(followUp, { tools: [weatherTool] }, token()));
    return { first, second };
  });

  await step(results, 'splitToolCalls', async () => {
    if (!model) throw new Error(`no model ${TOOL_MODEL}`);
    const timeTool = { name: 'get_time', description: 'The time in a zone', inputSchema: { type: 'object', properties: { tz: { type: 'string' } } } };
    const said = 'Both [[tool:get_weather {"city":"Zürich"}]] [[tool:get_time {"tz":"CET"}]] [[tool-split]]';
    return collect(await model.sendRequest([U(said)], { tools: [weatherTool, timeTool] }, token()));
  });

  await step(results, 'invalidToolCall', async () => {
    if (!model) throw new Error(`no model ${TOOL_MODEL}`);
    return collect(await model.sendRequest([U('[[tool-invalid:get_weather]]')], { tools: [weatherTool] }, token()));
  });

  await step(results, 'cancel', async () => {
    if (!model) throw new Error(`no model ${TOOL_MODEL}`);
    const source = new vscode.CancellationTokenSource();
    let parts = 0;
    let ended = 'completed';
    try {
      const response = await model.sendRequest([U('A long answer please [[slow]]')], {}, source.token);
      await collect(response, () => {
        parts++;
        if (parts === 1) source.cancel();
      });
    } catch (e) {
      ended = `threw ${describeError(e).name}`;
    }
    return { partsBeforeEnd: parts, ended, cancelled: source.token.isCancellationRequested };
  });

  await step(results, 'countTokens', async () => {
    if (!model) throw new Error(`no model ${TOOL_MODEL}`);
    const long = 'count me '.repeat(100);
    return { short: await model.countTokens('hello'), long: await model.countTokens(long), longAgain: await model.countTokens(long) };
  });

  await step(results, 'mcpServerDefinitions', async () => {
    const defs = /** @type {any} */ (vscode.lm).mcpServerDefinitions;
    if (!Array.isArray(defs)) return { available: false };
    return describeMcp(defs);
  });

  await step(results, 'tools', async () => vscode.lm.tools.filter((t) => t.name.startsWith('aiGateway')).map((t) => t.name));

  results.finishedAt = new Date().toISOString();
  await writeResults(RESULTS_FILE, results);
  return results;
}

/**
 * One conversation with the messages-only model (test/e2e/messages.e2e.ts): a text reply, and a tool
 * call with the follow-up that carries its result, through the same API as any other model.
 */
async function askMessagesModel() {
  const results = {};
  const token = () => new vscode.CancellationTokenSource().token;
  const U = vscode.LanguageModelChatMessage.User;
  const A = vscode.LanguageModelChatMessage.Assistant;
  let model;
  await step(results, 'model', async () => {
    [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: MESSAGES_MODEL });
    if (!model) throw new Error(`no model ${MESSAGES_MODEL}`);
    return { id: model.id, name: model.name, capabilities: model.capabilities };
  });
  await step(results, 'text', async () => collect(await model.sendRequest([U('Hello from VS Code chat')], {}, token())));
  const tool = { name: 'get_weather', description: 'The weather in a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
  const ask = 'Weather in Bergen? [[tool:get_weather {"city":"Bergen"}]]';
  await step(results, 'toolCall', async () => {
    const first = await collect(await model.sendRequest([U(ask)], { tools: [tool] }, token()));
    const call = first.calls[0];
    if (!call) return { first };
    const followUp = [U(ask), A([new vscode.LanguageModelToolCallPart(call.callId, call.name, call.input)]), U([new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('rain, 12 C')])])];
    return { first, second: await collect(await model.sendRequest(followUp, { tools: [tool] }, token())) };
  });
  await writeResults('lm-probe-messages.json', results);
}

function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('aiGatewayProbe.run', run),
    vscode.commands.registerCommand('aiGatewayProbe.listMcp', listMcp),
    vscode.commands.registerCommand('aiGatewayProbe.mcpTools', mcpTools),
    vscode.commands.registerCommand('aiGatewayProbe.askMessagesModel', askMessagesModel),
  );
}

module.exports = { activate, deactivate() {} };
