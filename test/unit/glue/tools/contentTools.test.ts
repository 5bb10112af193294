/**
 * [#43.1] The content tools of VS Code's agent mode (src/tools/) with the real Services against the
 * vscode double and the local gateway: each tool's schema in package.json, the confirmation with its
 * cost before any billed request, the budget refusal as the tool's result with nothing sent, the
 * change proposed as a diff written only on Accept, and files outside the workspace refused.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunningGateway } from '../../../localGateway/server';
import type { Services } from '../../../../src/services';
import { glueWorld } from '../world';
import { CONTENT_TOOL_NAMES, registerTools } from '../../../../src/tools/registerTools';
import { DAILY_KEY } from '../../../../src/platform/budgetService';

const ROOT = join(__dirname, '../../../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: { languageModelTools: Array<{ name: string; modelDescription: string; tags?: string[]; inputSchema: { type: string; properties: Record<string, { type: string }>; required?: string[] } }> };
};
const nls = JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;

const POST = '---\ntitle: Sunset\ncategories: [Travel]\n---\n\nA walk by the sea.\n\n![](sunset.jpg)\n\nThe end.\n';

const world = glueWorld({
  config: { 'aiGateway.retry.maxAttempts': 1 },
  workspace: { 'post.md': POST, 'sunset.jpg': readFileSync(join(ROOT, 'test/e2e/fixtures/sunset.jpg')) },
  register: registerTools,
});
/** A folder outside the workspace, with a Markdown file the tools must never read. */
let outside: string;
let ws: string;
let services: Services;
let gw: RunningGateway;

beforeEach(async () => {
  ({ workspace: ws, services, gw } = world);
  outside = await realpath(await mkdtemp(join(tmpdir(), 'tools43-out-')));
  await writeFile(join(outside, 'secret.md'), '# Secret\n\n![](x.png)\n');
});
afterEach(() => rm(outside, { recursive: true, force: true }));

const token = () => new vscode.CancellationTokenSource().token;
const tool = (name: string) => double.lmTools.get(name) as vscode.LanguageModelTool<Record<string, unknown>>;
const prepare = async (name: string, input: Record<string, unknown>) => (await tool(name).prepareInvocation!({ input } as never, token()))!;
const invoke = async (name: string, input: Record<string, unknown>) => {
  const r = await tool(name).invoke({ input, toolInvocationToken: undefined } as never, token());
  return (r!.content as Array<{ value: string }>).map((p) => p.value).join('');
};
const confirmationText = (p: vscode.PreparedToolInvocation) => {
  const m = p.confirmationMessages!.message;
  // MarkdownString.appendText escapes Markdown punctuation; the words are compared without the escapes.
  return typeof m === 'string' ? m : m.value.replace(/\\(.)/g, '$1');
};
const billed = () => gw.events.list('request').filter((e) => /\/v1\/(images|content|chat)\//.test(String(e.path)));

/** Spends exactly 1 credit today, then sets a daily budget of 0.5 credits: over budget. */
async function overBudget(): Promise<void> {
  await services.spend.recordSpend({ model: 'test/model', operation: 'chat-panel', usage: { prompt_tokens: 1_000_000, completion_tokens: 0, total_tokens: 1_000_000 }, pricing: { input_per_million: '1', output_per_million: '1', pricing_version: '2025-11-01', unit: 'credits' } });
  double.setConfig(DAILY_KEY, '0.5', 'global');
}

describe('[#43.1] the tools in package.json', { timeout: 30_000 }, () => {
  test('[#43.1] every registered tool is contributed with a schema, a model description, tags, a name and an activation event', () => {
    const contributed = new Map(manifest.contributes.languageModelTools.map((t) => [t.name, t]));
    assert.deepEqual([...double.lmTools.keys()].sort(), [...CONTENT_TOOL_NAMES].sort());
    for (const name of CONTENT_TOOL_NAMES) {
      const t = contributed.get(name);
      assert.ok(t, `${name} is contributed`);
      assert.equal(t.inputSchema.type, 'object');
      assert.ok(t.modelDescription.length > 40);
      assert.ok(t.tags?.includes('ai-gateway'));
      assert.ok(nls[`languageModelTool.${name}.displayName`], `${name} has a display name`);
      assert.ok(manifest.activationEvents.includes(`onLanguageModelTool:${name}`));
    }
    assert.deepEqual(contributed.get('aiGateway_altText')!.inputSchema.required, ['filePath']);
    assert.deepEqual(contributed.get('aiGateway_generateImage')!.inputSchema.required, ['prompt', 'saveAs']);
    assert.equal(contributed.get('aiGateway_suggestTaxonomy')!.inputSchema.properties.existingCategories.type, 'array');
    assert.deepEqual(Object.keys(contributed.get('aiGateway_spendToday')!.inputSchema.properties), []);
  });
});

describe('[#43.1] alt text tool', { timeout: 30_000 }, () => {
  test('[#43.1] the confirmation names the images and the cost before anything billed is sent', async () => {
    const p = await prepare('aiGateway_altText', { filePath: 'post.md' });
    assert.equal(p.confirmationMessages!.title, 'Generate alt text for 1 image in post.md?');
    const text = confirmationText(p);
    // The first alt_text model of the local catalog, anthropic/claude-haiku-4.5: input 1 credit and output 5
    // credits per 1M tokens, max_output_tokens 64,000. The prompt (the image's surrounding text) is N tokens
    // as the gateway counts them: N × 0.000001 credits, and at most that plus 64,000 × 0.000005 = 0.32 credits.
    const m = /^Prompt: ([\d.]+) credits \((\d+) tokens, counted by the gateway\) on anthropic\/claude-haiku-4\.5\./.exec(text);
    assert.ok(m, text);
    const n = Number(m[2]);
    assert.equal(m[1], (n / 1e6).toFixed(6).replace(/0+$/, ''));
    assert.match(text, new RegExp(`At most ${(0.32 + n / 1e6).toFixed(6).replace(/0+$/, '').replace('.', '\\.')} credits in all with the longest reply anthropic/claude-haiku-4\\.5 can give\\.`));
    assert.match(text, /Each image is billed on top as input tokens at 1 credit \/ 1M tokens\./);
    assert.match(text, /nothing is written until you accept it/);
    assert.equal(billed().length, 0, 'preparing sends nothing billed');
  });

  test('[#43.1] invoke proposes the alt text as a diff; Discard leaves the file as it was', async () => {
    double.answer('Discard');
    const out = await invoke('aiGateway_altText', { filePath: 'post.md' });
    assert.match(out, /did not accept the proposed alt text; post\.md is unchanged/);
    const review = double.messages.find((m) => /^Review the proposed change to post\.md/.test(m.message))!;
    assert.deepEqual(review.titles, ['Accept', 'Discard']);
    assert.equal((await vscode.workspace.openTextDocument(vscode.Uri.file(join(ws, 'post.md')))).getText(), POST);
    assert.equal(billed().filter((e) => e.path === '/v1/images/alt-text').length, 1);
  });

  test('[#43.1] Accept writes the alt text into the image reference', async () => {
    double.answer('Accept');
    const out = await invoke('aiGateway_altText', { filePath: 'post.md' });
    assert.match(out, /accepted the alt text; post\.md was changed \(1 images\)/);
    const text = (await vscode.workspace.openTextDocument(vscode.Uri.file(join(ws, 'post.md')))).getText();
    assert.match(text, /\n!\[Local "test" image: [^\n]+\]\(sunset\.jpg\)\n/);
    assert.ok(text.startsWith('---\ntitle: Sunset\ncategories: [Travel]\n---\n'), 'the front matter is kept');
  });

  test('[#43.1] over the budget: the refusal is the result and nothing is sent', async () => {
    await overBudget();
    const out = await invoke('aiGateway_altText', { filePath: 'post.md' });
    assert.match(out, /was not sent: the AI Gateway budget is used up/);
    assert.equal(billed().length, 0);
    assert.ok(double.messages.some((m) => m.options.modal && /budget is used up/.test(m.message)));
  });

  test('[#43.1] a file outside the workspace is refused (absolute, ../, and a symlink out); nothing is read or sent', async () => {
    await symlink(join(outside, 'secret.md'), join(ws, 'link.md'));
    for (const filePath of [join(outside, 'secret.md'), '../' + outside.split('/').pop() + '/secret.md', 'link.md']) {
      const p = await prepare('aiGateway_altText', { filePath });
      assert.equal(p.confirmationMessages, undefined, `${filePath}: no confirmation for a refused file`);
      assert.match(await invoke('aiGateway_altText', { filePath }), /is outside the workspace folders/, filePath);
    }
    assert.equal(billed().length, 0);
    assert.ok(!double.documents.some((d) => d.uri.fsPath.startsWith(outside)), 'the outside file was never opened');
  });

  test('[#43.1] in Restricted Mode the local image is read only after a yes; No sends nothing', async () => {
    double.isTrusted = false;
    double.answer("Don't Read");
    const out = await invoke('aiGateway_altText', { filePath: 'post.md' });
    assert.match(out, /Restricted Mode/);
    assert.equal(billed().length, 0);
  });
});

describe('[#43.1] summary, taxonomy, image and spend tools', { timeout: 30_000 }, () => {
  test('[#43.1] summary: confirmation with the cost, the summary as the result, no file changed', async () => {
    const p = await prepare('aiGateway_summarize', { filePath: 'post.md' });
    assert.equal(p.confirmationMessages!.title, 'Summarise post.md?');
    assert.match(confirmationText(p), /^Prompt: [\d.]+ credits \(\d+ tokens, counted by the gateway\) on /);
    const out = await invoke('aiGateway_summarize', { filePath: 'post.md' });
    assert.match(out, /^Summary of post\.md: \S/);
    assert.equal(await readFile(join(ws, 'post.md'), 'utf8'), POST);
  });

  test('[#43.1] summary over the budget: refused, nothing sent', async () => {
    await overBudget();
    assert.match(await invoke('aiGateway_summarize', { filePath: 'post.md' }), /Summarise was not sent: the AI Gateway budget is used up/);
    assert.equal(billed().length, 0);
  });

  test('[#43.1] taxonomy: the terms are proposed in the front matter as a diff, written on Accept', async () => {
    const p = await prepare('aiGateway_suggestTaxonomy', { filePath: 'post.md' });
    assert.match(confirmationText(p), /proposed as a diff of the front matter/);
    double.answer('Accept');
    const out = await invoke('aiGateway_suggestTaxonomy', { filePath: 'post.md', existingCategories: ['Travel', 'Photography'] });
    assert.match(out, /accepted the terms; the front matter of post\.md was changed/);
    assert.equal(billed().filter((e) => e.path === '/v1/content/suggest-taxonomy').length, 1);
    const text = (await vscode.workspace.openTextDocument(vscode.Uri.file(join(ws, 'post.md')))).getText();
    assert.notEqual(text, POST);
    assert.match(text, /^---\ntitle: Sunset\n/);
  });

  test('[#43.1] taxonomy outside the workspace: refused', async () => {
    assert.match(await invoke('aiGateway_suggestTaxonomy', { filePath: join(outside, 'secret.md') }), /outside the workspace folders/);
    assert.equal(billed().length, 0);
  });

  test('[#43.1] image: the exact per-image price in the confirmation; saved only on Save, inside the workspace', async () => {
    await mkdir(join(ws, 'images'));
    const p = await prepare('aiGateway_generateImage', { prompt: 'A red kite over a beach', saveAs: 'images/kite.png' });
    assert.match(p.confirmationMessages!.title, /^Generate 1 image with \S+\?$/);
    assert.match(confirmationText(p), /Cost: 1 image × 0\.042 credits per image = 0\.042 credits\./);
    double.answer('Discard');
    assert.match(await invoke('aiGateway_generateImage', { prompt: 'A red kite over a beach', saveAs: 'images/kite.png' }), /did not save the image; nothing was written/);
    assert.equal(double.readFile(join(ws, 'images/kite.png')), undefined);
    double.answer('Save');
    assert.match(await invoke('aiGateway_generateImage', { prompt: 'A red kite over a beach', saveAs: 'images/kite.png' }), /saved to images\/kite\.png/);
    assert.notEqual(double.readFile(join(ws, 'images/kite.png')), undefined);
  });

  test('[#43.1] image outside the workspace or over the budget: refused, nothing sent', async () => {
    assert.match(await invoke('aiGateway_generateImage', { prompt: 'x', saveAs: join(outside, 'a.png') }), /outside the workspace folders/);
    await overBudget();
    assert.match(await invoke('aiGateway_generateImage', { prompt: 'x', saveAs: 'a.png' }), /budget is used up/);
    assert.equal(gw.events.list('request').filter((e) => String(e.path).startsWith('/v1/images/generations')).length, 0);
  });

  test("[#43.1] today's spend: no confirmation, the day's figure and the budget", async () => {
    await overBudget();
    const p = await prepare('aiGateway_spendToday', {});
    assert.equal(p.confirmationMessages, undefined);
    const out = await invoke('aiGateway_spendToday', {});
    assert.match(out, /^Spent today: 1 credits? \(local ledger of this editor\)\. Spent this month: 1 credits?\. Daily budget: 0\.5 credits\. No monthly budget is set\./);
    assert.equal(billed().length, 0);
  });
});
