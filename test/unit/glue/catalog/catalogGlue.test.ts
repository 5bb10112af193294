/**
 * [#40.5] The catalog feature's glue against the vscode double and the local gateway: the commands'
 * bodies (src/catalog/catalogCommands.ts, [#40.2]), the Models tree (modelTree.ts), the schema
 * documents (schemaProvider.ts) and the activation wiring (registerCatalog.ts). The catalog comes from
 * the local gateway through the real gateway client, as in the editor.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startGateway, type RunningGateway } from '../../../localGateway/server';
import { createGatewayClient, type GatewayClient } from '../../../../src/core/gateway/gatewayClient';
import { bindSettingsSource } from '../../../../src/platform/config';
import { CatalogService } from '../../../../src/platform/catalogService';
import { CatalogViewState } from '../../../../src/core/catalog/viewState';
import { copyModelId, filterCapabilities, filterText, openInChat, setDefaultModel, showSchema, type CatalogCommandDeps } from '../../../../src/catalog/catalogCommands';
import { SchemaContentProvider, SCHEMA_SCHEME, schemaUri, modelIdFromSchemaUri } from '../../../../src/catalog/schemaProvider';
import { ModelTreeProvider, viewMessage } from '../../../../src/catalog/modelTree';
import { registerCatalog } from '../../../../src/catalog/registerCatalog';
import type { TreeItemDescriptor } from '../../../../src/core/catalog/tree';
import type { Services } from '../../../../src/services';

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

let gw: RunningGateway;
let client: GatewayClient;
before(async () => {
  gw = await startGateway();
  client = createGatewayClient({ baseUrl: () => gw.url, getKey: async () => undefined, userAgent: 'catalog-glue-test', env: {}, retry: { maxAttempts: 1 } });
});
after(async () => {
  await client.dispose();
  await gw.close();
});

let deps: CatalogCommandDeps;
beforeEach(() => {
  double.reset();
  gw.reset();
  bindSettingsSource(vscode.workspace as never);
  const ctx = double.extensionContext();
  deps = {
    catalog: new CatalogService({ context: ctx, log: quiet, getClient: async () => client }),
    view: new CatalogViewState(ctx.globalState),
    schemas: new SchemaContentProvider(async () => client),
  };
});

/** Waits (on a condition, never on time) for work a command left running, e.g. a notification shown with `void`. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 3000 && !cond(); i++) await new Promise((r) => setTimeout(r, i < 100 ? 0 : 10)); // a bound on failure only
  assert.ok(cond(), 'the condition never held');
}

const schemaRequests = () => gw.events.list().filter((e) => String((e as { path?: unknown }).path ?? '').endsWith('/schema'));

describe('[#40.2] catalog commands (src/catalog/catalogCommands.ts)', () => {
  test('[#40.2] Copy Model Id from the palette: the picker lists the catalog from the gateway (removed models left out); the id is copied', async () => {
    double.answer('GPT-5 mini');
    await copyModelId(deps, undefined);
    const [pick] = double.quickPicks;
    assert.ok(pick.labels.includes('GPT-5.1'));
    assert.ok(!pick.labels.includes('GPT-4 Turbo'), 'a removed model is not offered');
    assert.equal(double.clipboard, 'openai/gpt-5-mini');
    assert.deepEqual(double.statusMessages, ['Copied openai/gpt-5-mini']);
  });

  test('[#40.2] Copy Model Id with an id that is not in the catalog: a warning, the clipboard untouched', async () => {
    await deps.catalog.ensureLoaded();
    await copyModelId(deps, 'nobody/nothing');
    assert.equal(double.messages[0].severity, 'warning');
    assert.equal(double.messages[0].message, 'Model nobody/nothing is not in the catalog.');
    assert.equal(double.clipboard, '');
  });

  test('[#40.2] Escape in the picker copies nothing', async () => {
    await copyModelId(deps, undefined);
    assert.equal(double.quickPicks.length, 1);
    assert.equal(double.clipboard, '');
    assert.equal(double.statusMessages.length, 0);
  });

  test('[G-CAT-6] Open in Chat refuses a removed model with a warning and opens nothing; a live one opens the chat on it', async () => {
    await deps.catalog.ensureLoaded();
    await openInChat(deps, 'openai/gpt-4-turbo');
    assert.equal(double.messages[0].message, 'openai/gpt-4-turbo has been removed: the gateway rejects requests naming it.');
    assert.equal(double.executed.length, 0);
    await openInChat(deps, 'openai/gpt-4o');
    assert.deepEqual(double.executed, [{ command: 'aiGateway.chat.openWithModel', args: ['openai/gpt-4o'] }]);
  });

  test('[G-CAT-14] Show Schema: one GET of the schema route under a cancellable progress, then a read-only JSON document', async () => {
    store(deps.schemas);
    await showSchema(deps, { id: 'openai/gpt-5.1' } as never);
    assert.equal(double.progress[0].title, 'Loading the schema of openai/gpt-5.1');
    assert.equal(double.progress[0].cancellable, true);
    const [shown] = double.shownDocuments;
    assert.equal(shown.uri.scheme, SCHEMA_SCHEME);
    const doc = double.documents.find((d) => d.uri.toString() === shown.uri.toString())!;
    assert.equal(doc.languageId, 'json');
    const schema = JSON.parse(doc.getText()) as { $schema?: string };
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.deepEqual(shown.options, { preview: true });
  });

  test('[G-CAT-14] Show Schema when the gateway fails: an error with Retry, no document opened; Retry runs the command again on the same model', async () => {
    await deps.catalog.ensureLoaded();
    gw.faults.add({ kind: 'server_error', route: '/v1/models/*', count: 1 });
    double.answer('Retry');
    await showSchema(deps, 'openai/gpt-4o');
    await until(() => double.executed.length > 0);
    const [err] = double.messages;
    assert.equal(err.severity, 'error');
    assert.match(err.message, /^Could not load the schema of openai\/gpt-4o: /);
    assert.equal(err.defaultTitle, 'Retry');
    assert.equal(double.shownDocuments.length, 0);
    assert.deepEqual(double.executed, [{ command: 'aiGateway.catalog.showSchema', args: ['openai/gpt-4o'] }]);
  });

  test('[G-CAT-14] Show Schema of a model the gateway does not know (404): an error without Retry', async () => {
    await showSchema(deps, { id: 'nobody/nothing' } as never);
    await until(() => double.messages.length > 0);
    assert.match(double.messages[0].message, /^Could not load the schema of nobody\/nothing: Not found \(404\)/);
    assert.ok(!double.messages[0].titles.includes('Retry'));
    assert.equal(double.shownDocuments.length, 0);
  });

  test('[#40.5] Set as Default Model: only the purposes the model can serve are offered; the ticked ones go to the user settings', async () => {
    await deps.catalog.ensureLoaded();
    double.answer(['Chat']);
    await setDefaultModel(deps, 'openai/gpt-5-mini');
    const [pick] = double.quickPicks;
    assert.equal(pick.options.canPickMany, true);
    assert.deepEqual(pick.labels, ['Chat', 'Summary'], 'gpt-5-mini has no taxonomy or vision capability');
    assert.deepEqual(double.configUpdates, [{ key: 'aiGateway.defaultModels.chat', value: 'openai/gpt-5-mini', target: vscode.ConfigurationTarget.Global }]);
    assert.match(double.messages[0].message, /^openai\/gpt-5-mini is now the default model for /);
  });

  test('[#40.5] Set as Default Model: Escape writes nothing', async () => {
    await deps.catalog.ensureLoaded();
    await setDefaultModel(deps, 'openai/gpt-5.1');
    assert.equal(double.quickPicks.length, 1);
    assert.equal(double.configUpdates.length, 0);
    assert.equal(double.messages.length, 0);
  });

  test('[#40.5] Set as Default Model of a model with no default purpose: says which capabilities are needed, no picker', async () => {
    await deps.catalog.ensureLoaded();
    await setDefaultModel(deps, 'openai/tts-1-hd');
    assert.equal(double.quickPicks.length, 0);
    assert.match(double.messages[0].message, /^openai\/tts-1-hd has none of the capabilities a default model is used for/);
  });

  test('[#40.5] the filters: capabilities ticked narrow the view (with model counts), Escape keeps the filter; text filter shows the current text', async () => {
    await deps.catalog.ensureLoaded();
    double.answer(['Image input (vision)', 'Tool calling']);
    await filterCapabilities(deps);
    assert.deepEqual([...deps.view.capabilities].sort(), ['tools', 'vision']);
    const vision = double.quickPicks[0].items.find((i) => typeof i !== 'string' && i.label === 'Image input (vision)') as unknown as { description: string };
    assert.match(vision.description, /^\d+ models$/);
    await filterCapabilities(deps); // Escape
    assert.deepEqual([...deps.view.capabilities].sort(), ['tools', 'vision']);
    assert.equal((double.quickPicks[1].items.find((i) => typeof i !== 'string' && i.label === 'Image input (vision)') as unknown as { picked: boolean }).picked, true);
    double.answer('gemini');
    await filterText(deps);
    assert.equal(deps.view.text, 'gemini');
    await filterText(deps); // Escape
    assert.equal(deps.view.text, 'gemini');
    assert.equal(double.inputBoxes[1].options.value, 'gemini');
  });
});

describe('[#41.10] [#41.11] the capability filter speaks words and counts what the view lists', () => {
  /** The tree grouped by capability: each group's label and how many models it lists. */
  async function groups(): Promise<Map<string, number>> {
    await deps.view.setGrouping('capability');
    const tree = new ModelTreeProvider(deps.catalog, deps.view);
    await deps.catalog.ensureLoaded();
    return new Map(tree.getChildren().flatMap((r) => (r.kind === 'group' ? [[r.label, r.children.length] as [string, number]] : [])));
  }
  /** The filter's rows as the user reads them: label and count. */
  async function filterRows(): Promise<Map<string, string>> {
    const n = double.quickPicks.length;
    await filterCapabilities(deps); // Escape
    const items = double.quickPicks[n].items as unknown as Array<{ label: string; description: string }>;
    return new Map(items.map((i) => [i.label, i.description]));
  }

  test('[#41.10] capabilities are named in words in the filter, the tree groups and the view description; the filter still stores ids', async () => {
    const rows = await filterRows();
    assert.ok(rows.has('Image generation') && rows.has('Alt text') && rows.has('Messages API'), JSON.stringify([...rows.keys()]));
    assert.ok(![...rows.keys()].some((l) => /_/.test(l)), 'no raw id such as image_generation');
    assert.ok((await groups()).has('Alt text'));
    double.answer(['Alt text']);
    await filterCapabilities(deps);
    assert.deepEqual(deps.view.capabilities, ['alt_text']);
    assert.equal(deps.view.description(), 'Alt text');
  });

  test('[#41.11] each count is the number of models the view lists under that capability: removed models hidden, the text filter applied', async () => {
    const listed = await groups();
    const rows = await filterRows();
    const count = (n: number | undefined) => (n === 1 ? '1 model' : `${n ?? 0} models`);
    // The local catalog has a removed model with the messages capability: the view hides it, so must the count.
    const removedWithMessages = deps.catalog.models.filter((m) => m.capabilities?.includes('messages') && m.removal_date && Date.parse(m.removal_date) <= Date.now());
    assert.ok(removedWithMessages.length > 0, 'the fixture has a removed messages model (else this test proves nothing)');
    for (const label of ['Messages API', 'Chat', 'Tool calling', 'Image generation']) assert.equal(rows.get(label), count(listed.get(label)), label);
    assert.equal(rows.get('Messages API'), count(deps.catalog.models.filter((m) => m.capabilities?.includes('messages')).length - removedWithMessages.length));
    deps.view.setText('gpt');
    const narrowed = await groups();
    const rows2 = await filterRows();
    assert.equal(rows2.get('Chat'), count(narrowed.get('Chat')));
    assert.notEqual(rows2.get('Chat'), rows.get('Chat'), 'the text filter narrows the count');
  });
});

/** Keeps the provider registered for the schema scheme, as registerCatalog does. */
function store(schemas: SchemaContentProvider): void {
  vscode.workspace.registerTextDocumentContentProvider(SCHEMA_SCHEME, schemas);
}

describe('[#40.5] schema documents (src/catalog/schemaProvider.ts)', () => {
  test('[G-CAT-14] the URI round-trips the model id; a reopened document (after a reload) fetches once, later reads come from memory', async () => {
    const uri = schemaUri('openai/gpt-4o');
    assert.equal(uri.scheme, SCHEMA_SCHEME);
    assert.equal(modelIdFromSchemaUri(uri), 'openai/gpt-4o');
    const before = schemaRequests().length;
    const first = await deps.schemas.provideTextDocumentContent(uri, new vscode.CancellationTokenSource().token);
    const second = await deps.schemas.provideTextDocumentContent(uri, new vscode.CancellationTokenSource().token);
    assert.equal(first, second);
    assert.ok(first.endsWith('\n'));
    assert.equal(schemaRequests().length - before, 1);
  });

  test('[G-CAT-14] a reopened document whose fetch fails shows a comment naming the model instead of throwing', async () => {
    const text = await deps.schemas.provideTextDocumentContent(schemaUri('nobody/nothing'), new vscode.CancellationTokenSource().token);
    assert.match(text, /^\/\/ Could not load the schema of nobody\/nothing: /);
  });
});

describe('[#40.5] the Models tree (src/catalog/modelTree.ts)', () => {
  test('[G-CAT-6] roots fetch the catalog once; a removed model is hidden unless aiGateway.catalog.showRemoved, then greyed out with its state read out', async () => {
    const tree = new ModelTreeProvider(deps.catalog, deps.view);
    tree.getChildren();
    await deps.catalog.ensureLoaded();
    const ids = (roots: TreeItemDescriptor[]) => roots.flatMap((r) => (r.kind === 'group' ? r.children : [r])).map((m) => (m.kind === 'model' ? m.model.id : ''));
    assert.ok(ids(tree.getChildren()).includes('openai/gpt-5.1'));
    assert.ok(!ids(tree.getChildren()).includes('openai/gpt-4-turbo'));
    double.setConfig('aiGateway.catalog.showRemoved', true);
    const removed = tree
      .getChildren()
      .flatMap((r) => (r.kind === 'group' ? r.children : [r]))
      .find((m) => m.kind === 'model' && m.model.id === 'openai/gpt-4-turbo')!;
    const item = tree.getTreeItem(removed);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'circle-slash');
    assert.equal(item.resourceUri?.scheme, 'ai-gateway-model');
    assert.match(String((item.accessibilityInformation as { label: string }).label), /^GPT-4 Turbo, openai\/gpt-4-turbo, /);
    const group = tree.getChildren()[0];
    assert.equal(group.kind, 'group');
    assert.equal(tree.getTreeItem(group).collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
  });

  test('[#40.5] the tooltip is built on hover and escapes markdown in model names', async () => {
    gw.configure({ extraModels: [{ id: 'evil/[x](https://attacker.example)', display_name: '**[click](https://attacker.example)**', owned_by: 'evil', capabilities: ['chat'] } as never] });
    const tree = new ModelTreeProvider(deps.catalog, deps.view);
    await deps.catalog.ensureLoaded();
    const evil = tree
      .getChildren()
      .flatMap((r) => (r.kind === 'group' ? r.children : [r]))
      .find((m) => m.kind === 'model' && m.model.id.startsWith('evil/'))!;
    assert.ok(evil, 'the extra model is listed');
    const item = tree.getTreeItem(evil);
    assert.equal(item.tooltip, undefined, 'no tooltip before hover');
    await tree.resolveTreeItem(item, evil);
    const md = item.tooltip as unknown as vscode.MarkdownString;
    assert.equal(md.isTrusted, false);
    assert.ok(!md.value.includes('](https://attacker.example)'), md.value);
  });

  test('[#40.5] the view message: a failed first load names the status; a filter that matches nothing says so', async () => {
    gw.faults.add({ kind: 'server_error', route: '/v1/models' });
    const tree = new ModelTreeProvider(deps.catalog, deps.view);
    await deps.catalog.refresh();
    assert.match(viewMessage(deps.catalog, deps.view, tree.getRoots()) ?? '', /^Could not load the model catalog \(500\)/);
    await deps.catalog.refresh();
    deps.view.setText('no-such-model-anywhere');
    assert.equal(viewMessage(deps.catalog, deps.view, tree.getRoots()), 'No models match the filter.');
  });

  test('[#40.8] a load that fails after the catalog was disposed (the window closing) shows no notification; a live one still does', async () => {
    gw.faults.add({ kind: 'server_error', route: '/v1/models', count: 2 });
    const gone = new CatalogService({ context: double.extensionContext(), log: quiet, getClient: async () => client });
    const loading = gone.refresh();
    gone.dispose();
    await loading;
    // The live catalog's notification comes after the one the disposed catalog would have shown (same path, later).
    await deps.catalog.refresh();
    await until(() => double.messages.length > 0);
    assert.deepEqual(double.messages.map((m) => m.message), [double.messages[0].message], 'one notification: the live catalog\'s');
    assert.match(double.messages[0].message, /Could not load the model catalog/);
  });
});

describe('[#40.5] activation wiring (src/catalog/registerCatalog.ts)', () => {
  test('[#40.5] registers the Models view, the schema scheme and every catalog command; a lazily loaded command runs end to end', async () => {
    const ctx = double.extensionContext();
    const services = { catalog: deps.catalog, context: ctx, getClient: async () => client } as unknown as Services;
    const d = registerCatalog(services);
    assert.deepEqual(
      double.treeViews.map((t) => t.id),
      ['aiGateway.models'],
    );
    assert.ok(double.executed.some((e) => e.command === 'setContext' && e.args[0] === 'aiGateway.catalog.filtered' && e.args[1] === false));
    assert.ok(double.commands.has('aiGateway.catalog.setDefaultModel'));
    await deps.catalog.ensureLoaded();
    await vscode.commands.executeCommand('aiGateway.catalog.copyModelId', 'openai/gpt-4o');
    assert.equal(double.clipboard, 'openai/gpt-4o');
    await vscode.commands.executeCommand('aiGateway.catalog.toggleGrouping');
    assert.match(double.statusMessages.at(-1) ?? '', /^Models grouped /);
    await vscode.commands.executeCommand('aiGateway.catalog.showSchema', 'openai/gpt-4o');
    assert.equal(double.shownDocuments[0].uri.scheme, SCHEMA_SCHEME, 'the schema document comes from the registered provider');
    d.dispose();
    assert.equal(double.commands.size, 0, 'disposing unregisters every command');
    assert.equal(double.treeViews.length, 1);
  });
});
