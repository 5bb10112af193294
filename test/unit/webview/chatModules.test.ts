/**
 * The chat page's modules, each used directly on the page booted in a DOM (#40.5): what each exports
 * does what the page relies on. The keys and focus are in chatComposer, chatMessages and chatHelpKeys.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HTMLElement } from 'happy-dom';
import { bootChat, message, waitingCall, type ChatPage } from './chatPage';

let chat: ChatPage | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

const mod = <T extends Record<string, unknown>>(file: string): T => chat!.module<T>(file);

test('[#40.5] host.ts: the page posts through the one VS Code API it acquired; state.ts: the last user message, the last message', async () => {
  chat = await bootChat({ modules: ['src/webview/chat/host.ts', 'src/webview/chat/state.ts'] });
  const host = mod<{ post: (m: unknown) => void; vscode: { getState(): unknown } }>('src/webview/chat/host.ts');
  host.post({ type: 'stop' });
  assert.deepEqual(chat.posted, [{ type: 'ready' }, { type: 'stop' }], 'ready first, once the page is built');
  const state = mod<{ lastUserMessage(): { id: string } | undefined; isLast(id: string): boolean; isLastUser(id: string): boolean; page: { editing: boolean } }>('src/webview/chat/state.ts');
  assert.equal(state.lastUserMessage(), undefined);
  await chat.show([message('u1', 'user', 'one'), message('a1', 'assistant', 'r'), message('u2', 'user', 'two'), message('a2', 'assistant', 'r2')]);
  assert.equal(state.lastUserMessage()?.id, 'u2');
  assert.equal(state.isLast('a2'), true);
  assert.equal(state.isLast('u2'), false);
  assert.equal(state.isLastUser('u2'), true);
  assert.equal(state.isLastUser('u1'), false);
  chat.key(chat.input, 'ArrowUp');
  assert.equal(state.page.editing, true);
});

test('[#40.5] layout.ts: sizes in chars and k chars, a long announcement cut to 500 characters; bootMark.ts marks the script start', async () => {
  const before = performance.getEntriesByName('aiGateway/chat/script').length;
  chat = await bootChat({ modules: ['src/webview/chat/layout.ts', 'src/webview/chat/bootMark.ts'] });
  assert.equal(performance.getEntriesByName('aiGateway/chat/script').length, before + 1);
  const layout = mod<{ formatSize(n: number): string; announce(t: string): void; iconButton(n: string, l: string, a: string): HTMLElement }>('src/webview/chat/layout.ts');
  assert.equal(layout.formatSize(900), '900 chars');
  assert.equal(layout.formatSize(2048), '2.0k chars');
  layout.announce('x'.repeat(600));
  assert.equal(chat.announced(), `${'x'.repeat(500)}…`);
  const b = layout.iconButton('copy', 'Copy it', 'copyMessage');
  assert.equal(b.getAttribute('aria-label'), 'Copy it');
  assert.equal(b.querySelector('.codicon-copy')?.getAttribute('aria-hidden'), 'true');
});

test('[#40.5] chrome.ts: the settings panel opens on the system prompt, Escape closes it back to its button; a deprecated or removed model is shown', async () => {
  chat = await bootChat({ modules: ['src/webview/chat/chrome.ts'] });
  const chrome = mod<{ setSettingsOpen(open: boolean): void; setBusy(b: boolean): void }>('src/webview/chat/chrome.ts');
  await chat.show([], {
    models: [{ id: 'm/a', label: 'Old Model', deprecated: true, warning: 'Old Model is deprecated: use New.' }],
    conversation: { id: 'c1', title: 'Chat', modelId: 'm/a', systemPrompt: 'Be brief.', messages: [], removedModel: { modelId: 'm/gone', suggestion: 'm/new' } },
  });
  assert.equal(chat.byId('model-warning').textContent, 'Old Model is deprecated: use New.');
  assert.equal(chat.byId('model-warning').hidden, false);
  assert.match(chat.byId('removed-banner').textContent ?? '', /The model m\/gone of this conversation has been removed/);
  chat.document.querySelector<HTMLElement>('#removed-banner button[data-action="switchTo"]')?.click();
  assert.deepEqual(chat.postedOf('selectModel'), [{ type: 'selectModel', modelId: 'm/new' }]);
  chat.byId('settings').click();
  assert.equal(chat.byId('settings-panel').hidden, false);
  assert.equal(chat.byId('settings').getAttribute('aria-expanded'), 'true');
  assert.equal(chat.where(), 'textarea#system-prompt');
  assert.equal((chat.focused() as unknown as { value: string }).value, 'Be brief.');
  chat.key(chat.focused() as HTMLElement, 'Escape');
  assert.equal(chat.byId('settings-panel').hidden, true);
  assert.equal(chat.where(), 'button#settings');
  chrome.setBusy(true);
  assert.equal(chat.byId('send').dataset.action, 'stop');
  assert.equal(chat.byId('send').getAttribute('aria-label'), 'Stop (Escape)');
  chrome.setSettingsOpen(true);
  assert.equal(chat.where(), 'textarea#system-prompt');
});

test('[#40.5] composer.ts: the host\'s price of the draft is shown with its kind; restoreInput never overwrites a newer draft', async () => {
  chat = await bootChat({ modules: ['src/webview/chat/composer.ts'] });
  const composer = mod<{ showPromptCost(t: string, e: boolean): void; restoreInput(t: string, m: string): void; send(): void }>('src/webview/chat/composer.ts');
  await chat.show([]);
  composer.showPromptCost('0.4 credits', true);
  assert.equal(chat.byId('prompt-cost').textContent, '0.4 credits');
  assert.equal(chat.byId('prompt-cost').title, '0.4 credits: an estimate (the gateway did not count these tokens)');
  await chat.receive({ type: 'promptCost', text: '0.5 credits', estimate: false });
  assert.match(chat.byId('prompt-cost').title, /^0\.5 credits: exact/);
  composer.restoreInput('put back', 'send');
  assert.equal(chat.input.value, 'put back');
  composer.restoreInput('older', 'send');
  assert.equal(chat.input.value, 'put back');
  composer.send();
  assert.deepEqual(chat.postedOf('send'), [{ type: 'send', text: 'put back' }]);
  // The system prompt and the temperature go to the host when changed.
  const sp = chat.byId<HTMLElement & { value: string }>('system-prompt');
  sp.value = 'Be kind.';
  sp.dispatchEvent(new chat.window.Event('change'));
  assert.deepEqual(chat.postedOf('setSystemPrompt'), [{ type: 'setSystemPrompt', text: 'Be kind.' }]);
});

test('[#40.5] completion.ts: open and closed as the caret enters and leaves a # or / trigger', async () => {
  chat = await bootChat({ modules: ['src/webview/chat/completion.ts'] });
  const completion = mod<{ completionOpen(): boolean; closeCompletion(): void; updateCompletion(): void }>('src/webview/chat/completion.ts');
  await chat.show([]);
  chat.input.focus();
  assert.equal(completion.completionOpen(), false);
  chat.type(chat.input, 'see #fi');
  assert.equal(completion.completionOpen(), true);
  assert.equal(chat.byId('completion').textContent, 'Searching…');
  chat.input.setSelectionRange(2, 2);
  completion.updateCompletion();
  assert.equal(completion.completionOpen(), false, 'the caret left the #word');
  chat.input.value = 'see ';
  chat.type(chat.input, '/x');
  assert.equal(completion.completionOpen(), false, '/ only at the start');
  chat.input.value = '/zzz';
  chat.input.setSelectionRange(4, 4);
  completion.updateCompletion();
  assert.equal(chat.byId('completion').textContent, 'No matching command');
  completion.closeCompletion();
  assert.equal(chat.input.getAttribute('aria-expanded'), 'false');
});

test('[#40.5] stream.ts, rendererLoader.ts, streamRenderer.ts: a reply streams in, is announced once complete, and a stale request is ignored', async () => {
  chat = await bootChat({ modules: ['src/webview/chat/stream.ts', 'src/webview/chat/rendererLoader.ts', 'src/webview/chat/streamRenderer.ts', 'src/webview/chat/messageNav.ts'] });
  // The stream renderer on its own: the first chunk paints at once, later ones once per frame.
  const { StreamRenderer } = mod<{ StreamRenderer: new (root: HTMLElement, schedule: (cb: () => void) => void) => { append(t: string): void; finish(): void; text: string } }>('src/webview/chat/streamRenderer.ts');
  const frames: Array<() => void> = [];
  const root = chat.document.createElement('div');
  const sr = new StreamRenderer(root, (cb) => void frames.push(cb));
  sr.append('# Head');
  assert.equal(root.querySelector('h1')?.textContent, 'Head', 'the first chunk is painted at once');
  sr.append('ing\n\nnext');
  assert.equal(frames.length, 1, 'the second chunk waits for a frame');
  frames.shift()?.();
  assert.equal(root.querySelector('h1')?.textContent, 'Heading');
  sr.finish();
  sr.append('late');
  assert.equal(sr.text, '# Heading\n\nnext', 'nothing is added after finish');
  const stream = mod<{ appendChunk(id: string, t: string): void }>('src/webview/chat/stream.ts');
  const loader = mod<{ withRenderer(use: (r: unknown) => void): void }>('src/webview/chat/rendererLoader.ts');
  let now = false;
  loader.withRenderer(() => void (now = true));
  assert.equal(now, true, 'the renderer has loaded after the page did: uses run at once');
  await chat.show([message('u1', 'user', 'q')]);
  await chat.receive({ type: 'streamStart', requestId: 'r1', message: message('a1', 'assistant', '', { status: 'streaming' }) });
  assert.equal(chat.byId('send').dataset.action, 'stop', 'Send turns into Stop');
  await chat.receive({ type: 'streamChunk', requestId: 'r1', text: 'Hello **wor' });
  stream.appendChunk('old-request', 'NOT THIS');
  await chat.receive({ type: 'streamChunk', requestId: 'r1', text: 'ld**\n\n- one\n- two\n' });
  const body = chat.messages.querySelector<HTMLElement>('article[data-message-id=a1] .body');
  assert.equal(body?.getAttribute('aria-busy'), 'true');
  assert.equal(body?.querySelector('strong')?.textContent, 'world');
  assert.doesNotMatch(body?.textContent ?? '', /NOT THIS/);
  await chat.receive({ type: 'streamDone', requestId: 'r1', message: message('a1', 'assistant', 'Hello **world**\n\n- one\n- two\n') });
  assert.equal(body?.hasAttribute('aria-busy'), false);
  assert.equal(body?.querySelectorAll('li').length, 2);
  assert.equal(chat.announced(), 'Response complete. Hello world one two');
  assert.equal(chat.byId('send').dataset.action, 'send');
  // A stopped reply is said quietly; an error says its message.
  await chat.receive({ type: 'streamStart', requestId: 'r2', message: message('a2', 'assistant', '', { status: 'streaming' }) });
  await chat.receive({ type: 'streamError', requestId: 'r2', message: message('a2', 'assistant', '', { status: 'error', error: { message: 'The gateway is down.', actions: ['retry'] } }) });
  assert.equal(chat.announced(), 'The gateway is down.');
});

test('[#40.5] renderer.ts, markdown.ts, codeLanguage.ts: a finished reply is sanitised Markdown with decorated code blocks', async () => {
  chat = await bootChat({ modules: ['src/webview/chat/renderer.ts', 'src/webview/chat/markdown.ts', 'src/webview/chat/codeLanguage.ts'] });
  const renderer = mod<{ renderReply(body: HTMLElement, text: string): void; renderBlock(b: unknown, o: unknown): HTMLElement }>('src/webview/chat/renderer.ts');
  const markdown = mod<{ renderMarkdown(t: string, settled: boolean): { querySelector(s: string): HTMLElement | null } }>('src/webview/chat/markdown.ts');
  const { codeLanguage } = mod<{ codeLanguage(el: HTMLElement): string | undefined }>('src/webview/chat/codeLanguage.ts');
  const body = chat.document.createElement('div');
  renderer.renderReply(body, '# Title\n\n<img src=x onerror=alert(1)>\n\n[a](javascript:alert(1)) and [b](https://example.com)\n\n```js\nlet x = 1;\n```\n');
  assert.equal(body.querySelector('h1')?.textContent, 'Title');
  assert.equal(body.querySelector('img'), null, 'raw HTML is text, never an element');
  assert.equal(body.querySelector('a[href^="javascript"]'), null);
  assert.equal(body.querySelector('a[href="https://example.com"]')?.textContent, 'b');
  const code = body.querySelector<HTMLElement>('.code-block pre code');
  assert.ok(code);
  assert.equal(codeLanguage(code), 'js');
  assert.ok(code.querySelector('.hljs-keyword'), 'highlighted');
  const plain = markdown.renderMarkdown('```\nraw\n```', false);
  assert.equal(plain.querySelector('.code-language')?.textContent, '');
  assert.deepEqual([...(plain.querySelector('.code-actions')?.querySelectorAll('button') ?? [])].map((b) => b.dataset.action), ['copyCode', 'applyCode', 'insertCode', 'newFile']);
  const block = renderer.renderBlock({ type: 'text', text: '**bold**' }, { retry: () => undefined, copyText: () => undefined });
  assert.equal(block.querySelector('strong')?.textContent, 'bold');
});

test('[#40.5] toolCalls.ts and messages.ts: a call with an unknown outcome is open and alerts; a rating waits for the host', async () => {
  chat = await bootChat({ modules: ['src/webview/chat/toolCalls.ts', 'src/webview/chat/messages.ts'] });
  const tools = mod<{ renderToolCall(c: unknown, a: unknown): HTMLElement; isGoToApprovalKey(e: unknown): boolean }>('src/webview/chat/toolCalls.ts');
  const messages = mod<{ part(el: HTMLElement, cls: string): HTMLElement | undefined }>('src/webview/chat/messages.ts');
  const el = tools.renderToolCall({ ...waitingCall('c9', 'deploy'), status: 'outcome-unknown', note: 'The connection dropped.', durationMs: 1500, requestId: 'req-1' }, { copyText: () => undefined });
  assert.equal(el.hasAttribute('open'), true);
  assert.equal(el.classList.contains('failed'), true);
  assert.equal(el.querySelector('.tool-note')?.getAttribute('role'), 'alert');
  assert.equal(el.querySelector('summary')?.getAttribute('aria-label'), 'Tool call deploy: outcome unknown');
  assert.equal(el.querySelector('.tool-approval'), null, 'no Approve on a call that is not waiting');
  const done = tools.renderToolCall({ ...waitingCall('c10'), status: 'done', approval: { kind: 'write', decision: 'approved' } }, { copyText: () => undefined });
  assert.equal(done.hasAttribute('open'), false, 'a finished call stays folded');
  assert.match(done.textContent ?? '', /Approved by you\./);
  const K = chat.window.KeyboardEvent;
  assert.equal(tools.isGoToApprovalKey(new K('keydown', { key: 'Enter', ctrlKey: true, shiftKey: true })), true);
  assert.equal(tools.isGoToApprovalKey(new K('keydown', { key: 'Enter', shiftKey: true })), false);
  assert.equal(tools.isGoToApprovalKey(new K('keydown', { key: 'Enter', ctrlKey: true, shiftKey: true, altKey: true })), false);
  // Thumbs on an agent-session reply: both busy until the host answers; the accepted one is pressed.
  await chat.show([message('u1', 'user', 'q'), message('a1', 'assistant', 'r', { feedback: {} })]);
  const article = chat.messages.querySelector<HTMLElement>('article[data-message-id=a1]');
  assert.ok(article);
  const footer = messages.part(article, 'message-footer');
  footer?.querySelector<HTMLElement>('button[data-rating="up"]')?.click();
  const rated = chat.postedOf('rateReply') as { rid?: unknown }[];
  assert.deepEqual(rated.map(({ rid: _rid, ...m }) => m), [{ type: 'rateReply', messageId: 'a1', rating: 'up' }]);
  assert.equal(typeof rated[0]?.rid, 'number', 'a declared request carries its id (#40.10)');
  assert.equal(footer?.querySelector('button[data-rating="down"]')?.getAttribute('aria-busy'), 'true');
  await chat.receive({ type: 'replyRating', messageId: 'a1', rating: 'up' });
  assert.equal(messages.part(article, 'message-footer')?.querySelector('button[data-rating="up"]')?.getAttribute('aria-pressed'), 'true');
  await chat.receive({ type: 'replyRating', messageId: 'a1', rating: null, error: 'Feedback could not be sent.' });
  assert.equal(messages.part(article, 'message-footer')?.querySelector('.feedback-error')?.textContent, 'Feedback could not be sent.');
});
