/**
 * [#31.6] The `@gateway` chat participant's handler (src/participant/participantHandler.ts) with a
 * fake response stream and fake editor-side pieces: each command, the cost line, cancellation, a
 * model that is not the gateway's, no active editor. `vscode` is the unit tier's test double
 * (test/unit/vscodeDouble): its l10n.t is the editor's formatting, its MarkdownString keeps its text.
 */
import { double } from '../vscodeDouble'; // first: points `vscode` at the double, also for a plain `node --import tsx --test <file>`
import { after, beforeEach, describe, test } from 'node:test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { IGatewayClient } from '../../../src/core/gateway/api';
import { GatewayError } from '../../../src/core/http/errors';
import { handleParticipantRequest } from '../../../src/participant/participantHandler';
import { attachedDocument } from '../../../src/participant/participantEditor';
type Deps = import('../../../src/participant/participantHandler').ParticipantDeps;
type Snapshot = import('../../../src/participant/participantHandler').EditorSnapshot;

const POST = ['---', 'title: Harbour', '---', '# At the harbour', '', '![](https://example.test/boats.png)', '', 'Boats at dawn.', '![](https://example.test/gulls.png)', ''].join('\n');
const uri = vscode.Uri.file('/work/posts/harbour.md');
const PRICING = { input_per_million: '2.00', output_per_million: '8.00', pricing_version: 'v1', unit: 'credits' };
const MODELS: Record<string, { id: string; capabilities: string[]; pricing: typeof PRICING }> = {
  'openai/gpt-5.1': { id: 'openai/gpt-5.1', capabilities: ['chat', 'vision', 'alt_text', 'summary', 'taxonomy'], pricing: PRICING },
  'google/gemini-2.5-flash': { id: 'google/gemini-2.5-flash', capabilities: ['chat', 'alt_text', 'summary', 'taxonomy'], pricing: PRICING },
};

/** The request's cancellation token, from the double's CancellationTokenSource; `cancel()` cancels it. */
function token() {
  const source = new vscode.CancellationTokenSource();
  return Object.assign(source.token, { cancel: () => source.cancel() });
}

interface Sent {
  path: string;
  body: Record<string, unknown>;
}

function makeDeps(over: Partial<Deps> & { editor?: Snapshot | null; sent?: Sent[]; usage?: boolean; onPost?: (s: Sent) => void } = {}): Deps & { offered: Array<{ edits: unknown[]; title: string }>; confirms: string[] } {
  const sent = over.sent ?? [];
  const offered: Array<{ edits: unknown[]; title: string }> = [];
  const confirms: string[] = [];
  const client = {
    async postJson(path: string, body: Record<string, unknown>) {
      const s = { path, body };
      sent.push(s);
      over.onPost?.(s);
      const usage = over.usage ? { usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 }, model: body.model } : {};
      if (path.endsWith('/alt-text')) return { data: { alt_text: `Alt ${sent.length}`, ...usage }, status: 200, requestId: 'r1' };
      if (path.endsWith('/summarize')) return { data: { summary: 'Boats leave the harbour at dawn.', ...usage }, status: 200, requestId: 'r2' };
      return { data: { categories: ['Travel'], tags: ['harbour', 'boats'], ...usage }, status: 200, requestId: 'r3' };
    },
  } as unknown as IGatewayClient;
  const editor: Snapshot | undefined = over.editor === null ? undefined : (over.editor ?? { uri: uri as never, languageId: 'markdown', text: POST, version: 3 });
  const base: Deps = {
    activeEditor: () => editor,
    catalogModel: (id) => MODELS[id],
    defaultModel: async () => ({ id: 'google/gemini-2.5-flash', capabilities: MODELS['google/gemini-2.5-flash'].capabilities }),
    confirmSend: async (operation) => {
      confirms.push(operation);
      return true;
    },
    client: async () => client,
    imageFor: async (_e, ref) => ({ kind: 'url', url: ref.src ?? '' }),
    confirmReadLocal: async () => true,
    offerEdit: (_e, edits, title) => {
      offered.push({ edits, title });
      return { command: 'aiGateway.participant.previewEdit', title: 'Preview and Apply…', arguments: [String(offered.length)] };
    },
    listSites: async () => [
      { site_id: 'site_blog', name: 'Harbour Blog', url: 'https://blog.example.test', cms_connection_status: 'connected' },
      { site_id: 'site_shop', name: 'Shop', url: 'https://shop.example.test', cms_connection_status: 'not_connected' },
    ],
    spendToday: async () => ({ dayNano: 420_000_000n, monthNano: 3_000_000_000n, dailyNano: 5_000_000_000n, source: 'ledger' }),
    log: { info: () => undefined, warn: () => undefined },
  };
  return Object.assign(base, over, { offered, confirms });
}

const GATEWAY_MODEL = { vendor: 'ai-gateway', id: 'openai/gpt-5.1', name: 'GPT-5.1' };

function stream() {
  const parts: string[] = [];
  const buttons: Array<{ command: string; title: string; arguments?: unknown[] }> = [];
  const progress: string[] = [];
  return {
    parts,
    buttons,
    progressed: progress,
    markdown: (v: string | { value: string }) => void parts.push(typeof v === 'string' ? v : v.value),
    button: (c: { command: string; title: string; arguments?: unknown[] }) => void buttons.push(c),
    progress: (v: string) => void progress.push(v),
    text: () => parts.join('').replace(/\\(.)/g, '$1'),
  };
}

describe('[#31.6] the @gateway chat participant', () => {
  test('[#31.6] /alt: alt text for every image without it, on the chat\'s gateway model, offered as one edit behind a preview button, never applied', async () => {
    const sent: Sent[] = [];
    const deps = makeDeps({ sent });
    const s = stream();
    const result = await handleParticipantRequest(deps, { command: 'alt', prompt: '', model: GATEWAY_MODEL }, s as never, token());
    assert.equal(sent.length, 2, 'one request per image');
    assert.ok(sent.every((x) => x.path === '/v1/images/alt-text' && x.body.model === 'openai/gpt-5.1'), JSON.stringify(sent));
    assert.equal(deps.offered.length, 1);
    assert.equal(deps.offered[0].edits.length, 2);
    assert.deepEqual(s.buttons.map((b) => b.command), ['aiGateway.participant.previewEdit']);
    assert.match(s.text(), /Alt text for 2 images in harbour\.md/);
    assert.match(s.text(), /Alt 1/);
    assert.match(s.text(), /Nothing is changed until you apply it in the preview/);
    assert.deepEqual(deps.confirms, ['Generate alt text'], 'the budget guard ran first');
    assert.equal(result.metadata?.edit, true);
  });

  test('[#31.6] /alt with a selection: only the images in it', async () => {
    const start = POST.indexOf('![](https://example.test/gulls');
    const sent: Sent[] = [];
    const deps = makeDeps({ sent, editor: { uri: uri as never, languageId: 'markdown', text: POST, version: 1, selection: { start, end: start + 10 } } });
    await handleParticipantRequest(deps, { command: 'alt', prompt: '', model: GATEWAY_MODEL }, stream() as never, token());
    assert.equal(sent.length, 1);
    assert.equal(deps.offered[0].edits.length, 1);
  });

  test('[#31.6] /summary: the summary and the cost line with the exact credits of the priced reply', async () => {
    const deps = makeDeps({ usage: true });
    const s = stream();
    await handleParticipantRequest(deps, { command: 'summary', prompt: '', model: GATEWAY_MODEL }, s as never, token());
    assert.match(s.text(), /Boats leave the harbour at dawn\./);
    // 1000 prompt tokens at 2.00 + 500 completion tokens at 8.00 per million = 0.006 credits.
    assert.match(s.text(), /Cost: 0\.006 credits on openai\/gpt-5\.1/);
    assert.deepEqual(deps.confirms, ['Summarise the document']);
  });

  test('[#31.6] /summary without token counts: the cost line says where the cost is counted instead of guessing', async () => {
    const s = stream();
    await handleParticipantRequest(makeDeps(), { command: 'summary', prompt: '', model: GATEWAY_MODEL }, s as never, token());
    assert.match(s.text(), /does not report the cost of this request here; it counts in your usage/);
  });

  test('[#31.6] /tags in Markdown: the terms, and the front matter change behind a preview button', async () => {
    const deps = makeDeps();
    const s = stream();
    const r = await handleParticipantRequest(deps, { command: 'tags', prompt: '', model: GATEWAY_MODEL }, s as never, token());
    assert.match(s.text(), /Categories: `Travel`/);
    assert.match(s.text(), /Tags: `harbour`, `boats`/);
    assert.equal(deps.offered.length, 1);
    const edit = deps.offered[0].edits[0] as { newText: string };
    assert.match(edit.newText, /harbour/);
    assert.equal(r.metadata?.edit, true);
  });

  test('[#31.6] /sites: the account\'s sites with their connection state', async () => {
    const s = stream();
    await handleParticipantRequest(makeDeps(), { command: 'sites', prompt: '' }, s as never, token());
    assert.match(s.text(), /2 sites:/);
    assert.match(s.text(), /Harbour Blog.*site_blog.*WordPress account connected/);
    assert.match(s.text(), /Shop.*not connected/);
  });

  test('[#39.14] /sites: each site offers Show Site Details, which reads GET /v1/sites/{site_identifier} for that site', async () => {
    const s = stream();
    await handleParticipantRequest(makeDeps(), { command: 'sites', prompt: '' }, s as never, token());
    assert.deepEqual(
      s.buttons.map((b) => [b.command, b.arguments, b.title]),
      [
        ['aiGateway.participant.showSiteDetails', ['site_blog'], 'Show Site Details: Harbour Blog'],
        ['aiGateway.participant.showSiteDetails', ['site_shop'], 'Show Site Details: Shop'],
      ],
    );
  });

  test('[#31.6] /spend: today against the daily budget, the month, and the buttons to the dashboard and the budgets', async () => {
    const s = stream();
    await handleParticipantRequest(makeDeps(), { command: 'spend', prompt: '' }, s as never, token());
    assert.match(s.text(), /Today: 0\.42 credits of 5 credits \(8 %\), from the local ledger/);
    assert.match(s.text(), /This month: 3 credits/);
    assert.deepEqual(s.buttons.map((b) => b.command), ['aiGateway.usage.show', 'workbench.action.openSettings']);
  });

  test('[#31.6] a model that is not the gateway\'s: the default model does the work, and the answer says so', async () => {
    const sent: Sent[] = [];
    const s = stream();
    await handleParticipantRequest(makeDeps({ sent }), { command: 'summary', prompt: '', model: { vendor: 'copilot', id: 'gpt-4.1', name: 'GPT-4.1' } }, s as never, token());
    assert.equal(sent[0].body.model, 'google/gemini-2.5-flash');
    assert.match(s.text(), /GPT-4\.1 is not one of the AI Gateway models, so your default model google\/gemini-2\.5-flash did this/);
  });

  test('[#31.6] no active editor: nothing is sent, and the answer says what to do', async () => {
    const sent: Sent[] = [];
    const s = stream();
    for (const command of ['alt', 'summary', 'tags']) await handleParticipantRequest(makeDeps({ sent, editor: null }), { command, prompt: '' }, s as never, token());
    assert.equal(sent.length, 0);
    assert.match(s.text(), /Open a document \(or select text in one\) first/);
    assert.ok(s.buttons.some((b) => b.command === 'workbench.action.quickOpen'));
  });

  test('[#31.6] cancellation: the request token stops /alt between images; nothing is offered and the answer says it stopped', async () => {
    const t = token();
    const sent: Sent[] = [];
    const deps = makeDeps({ sent, onPost: () => t.cancel() });
    const s = stream();
    await handleParticipantRequest(deps, { command: 'alt', prompt: '', model: GATEWAY_MODEL }, s as never, t);
    assert.equal(sent.length, 1, 'the second image is not sent');
    assert.equal(deps.offered.length, 0);
    assert.equal(s.buttons.length, 0);
    assert.match(s.text(), /Stopped\. Nothing was changed\./);
  });

  test('[#31.6] an error is answered in words with the action that helps', async () => {
    const deps = makeDeps({
      client: async () =>
        ({
          postJson: async () => {
            throw new GatewayError({ reason: 'authentication', message: 'Invalid API key', status: 401 } as never);
          },
        }) as unknown as IGatewayClient,
    });
    const s = stream();
    await handleParticipantRequest(deps, { command: 'summary', prompt: '', model: GATEWAY_MODEL }, s as never, token());
    assert.ok(s.buttons.some((b) => b.command === 'aiGateway.switchApiKey'), JSON.stringify(s.buttons));
    assert.ok(s.buttons.some((b) => b.command === 'aiGateway.showLog'));
  });

  test('[#31.6] a bare @gateway: the help names every command', async () => {
    const s = stream();
    await handleParticipantRequest(makeDeps(), { prompt: 'hello' }, s as never, token());
    for (const c of ['/alt', '/summary', '/tags', '/sites', '/spend']) assert.ok(s.text().includes(c), c);
  });
});

describe('[#41.2] @gateway ticks the walkthrough', () => {
  const ticked = (step: string) => double.executed.filter((e) => e.command === 'setContext' && e.args[0] === `aiGateway.done.${step}`).map((e) => e.args[1]);
  test('[#41.2] /alt with alt text generated ticks "Generate alt text on a post" and "Try VS Code\'s own chat"', async () => {
    double.reset();
    await handleParticipantRequest(makeDeps(), { command: 'alt', prompt: '', model: GATEWAY_MODEL }, stream() as never, token());
    assert.deepEqual(ticked('altText'), [true]);
    assert.deepEqual(ticked('vscodeChat'), [true]);
  });
  test('[#41.2] any other @gateway command ticks the VS Code chat step only; a cancelled one ticks nothing', async () => {
    double.reset();
    await handleParticipantRequest(makeDeps(), { command: 'spend', prompt: '' }, stream() as never, token());
    assert.deepEqual(ticked('vscodeChat'), [true]);
    assert.deepEqual(ticked('altText'), []);
    double.reset();
    const t = token();
    await handleParticipantRequest(makeDeps({ onPost: () => t.cancel() }), { command: 'alt', prompt: '', model: GATEWAY_MODEL }, stream() as never, t);
    assert.deepEqual(ticked('vscodeChat'), []);
    assert.deepEqual(ticked('altText'), []);
  });
});

/**
 * [#41.5] The file attached in VS Code's chat (`request.references`: a Uri for a file, a Location for
 * a selection) comes first; the active editor only when nothing is attached. The workspace and its
 * files are the double's (in-memory workspace.fs); attachedDocument is participantEditor.ts's own.
 */
describe('[#41.5] @gateway works on the file attached in the chat', () => {
  const NOTE = ['# Harbour notes', '', 'The ferry leaves at seven.', 'Gulls follow it out.', ''].join('\n');
  // A real folder on disk (the containment check follows symlinks there), its files also in the double's workspace.fs.
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'aigw-participant-ws-')));
  const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'aigw-participant-out-')));
  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });
  const file = (path: string, text: string): vscode.Uri => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    double.writeFile(path, text);
    return vscode.Uri.file(path);
  };
  let noteUri: vscode.Uri;
  let secretUri: vscode.Uri;
  beforeEach(() => {
    double.reset();
    double.setWorkspaceFolders([root]);
    noteUri = file(join(root, 'posts/notes.md'), NOTE);
    secretUri = file(join(elsewhere, 'secret.md'), '# Not in the workspace\n');
  });
  const fileRef = (u: vscode.Uri, id = 'file-attachment') => ({ id, name: 'notes.md', value: u });
  const real = (over: Parameters<typeof makeDeps>[0] = {}) => makeDeps({ attachedDocument, ...over });

  test('[#41.5] /summary from a window whose last editor was a webview (no text editor): the attached file is summarised, not "Open a document first"', async () => {
    const sent: Sent[] = [];
    const s = stream();
    await handleParticipantRequest(real({ sent, editor: null }), { command: 'summary', prompt: '', references: [fileRef(noteUri)], model: GATEWAY_MODEL }, s as never, token());
    assert.equal(sent.length, 1);
    assert.equal(sent[0].path, '/v1/content/summarize');
    assert.match(String(sent[0].body.text), /The ferry leaves at seven\./);
    assert.doesNotMatch(s.text(), /Open a document/);
    assert.match(s.text(), /Boats leave the harbour at dawn\./);
  });

  test('[#41.5] the attachment comes before the active editor, and an attached selection (a Location) is what is summarised', async () => {
    const sent: Sent[] = [];
    const range = new vscode.Range(2, 0, 2, 'The ferry leaves at seven.'.length);
    const s = stream();
    await handleParticipantRequest(real({ sent }), { command: 'summary', prompt: '', references: [{ id: 'vscode.selection', name: 'selection', value: new vscode.Location(noteUri, range) }], model: GATEWAY_MODEL }, s as never, token());
    assert.equal(sent.length, 1);
    assert.equal(sent[0].body.text, 'The ferry leaves at seven.', 'the selection only, not the active editor (harbour.md)');
    assert.doesNotMatch(String(sent[0].body.text), /Boats|Gulls/);
  });

  test('[#41.5] a file the user attached comes before the chat\'s implicit context (the editor in front)', async () => {
    const implicitRef = { id: 'vscode.implicit.file', name: 'other.md', value: file(join(root, 'posts/other.md'), '# Other\n\nSomething else entirely.\n') };
    const sent: Sent[] = [];
    await handleParticipantRequest(real({ sent }), { command: 'summary', prompt: '', references: [implicitRef, fileRef(noteUri)], model: GATEWAY_MODEL }, stream() as never, token());
    assert.match(String(sent[0].body.text), /ferry/);
  });

  test('[#41.5] a file outside the workspace is refused with the reason: nothing is read, nothing is sent, the active editor is not used instead', async () => {
    const sent: Sent[] = [];
    const s = stream();
    for (const command of ['summary', 'tags', 'alt']) {
      await handleParticipantRequest(real({ sent }), { command, prompt: '', references: [fileRef(secretUri)], model: GATEWAY_MODEL }, s as never, token());
    }
    assert.equal(sent.length, 0);
    assert.match(s.text(), /secret\.md is not in the open workspace, so @gateway does not read it/);
    assert.doesNotMatch(s.text(), /Boats leave/);
    assert.equal(double.documents.some((d) => d.uri.path.endsWith('/secret.md')), false, 'the file was not opened');
  });

  test('[#41.5] a path that climbs out with .. and a symlink in the workspace that points outside are refused too', async () => {
    const climbing = vscode.Uri.file(`${root}/posts/../../${elsewhere.split('/').pop()}/secret.md`);
    symlinkSync(join(elsewhere, 'secret.md'), join(root, 'posts/link.md'));
    double.writeFile(join(root, 'posts/link.md'), '# Not in the workspace\n');
    for (const u of [climbing, vscode.Uri.file(join(root, 'posts/link.md'))]) {
      const got = await attachedDocument([fileRef(u)]);
      assert.equal(got.kind, 'refused', u.path);
      assert.match((got as { message: string }).message, /is not in the open workspace/);
    }
    assert.equal(double.documents.length, 0, 'nothing was opened');
  });

  test('[#41.5] references that are not files (a variable\'s text, a number, nothing) leave the active editor in charge; an attached file that cannot be read is said', async () => {
    assert.deepEqual(await attachedDocument([{ id: 'vscode.prompt.instructions', value: 'Be brief.' }, { id: 'count', value: 3 }, null]), { kind: 'none' });
    const sent: Sent[] = [];
    await handleParticipantRequest(real({ sent }), { command: 'summary', prompt: '', references: [{ id: 'x', value: 'Be brief.' }], model: GATEWAY_MODEL }, stream() as never, token());
    assert.match(String(sent[0].body.text), /Boats at dawn/, 'the active editor (harbour.md)');
    const missing = await attachedDocument([fileRef(vscode.Uri.file(join(root, 'posts/gone.md')))]);
    assert.equal(missing.kind, 'refused');
    assert.match((missing as { message: string }).message, /gone\.md could not be opened/);
  });
});
