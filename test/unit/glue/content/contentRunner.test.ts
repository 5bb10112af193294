/**
 * [#40.5] The content commands' runner (src/content/contentRunner.ts) with the real Services against the
 * vscode double and the local gateway: a cut-off reply is never used silently (Discard is the default),
 * failures become one error notification, and offset edits become a proposal written only on Accept.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { glueWorld, until } from '../world';
import { proposeOffsetEdits, runContentTask } from '../../../../src/content/contentRunner';
import type { ContentDeps } from '../../../../src/core/content/contentClient';

const world = glueWorld({ config: { 'aiGateway.retry.maxAttempts': 1 } });

const ask = (text: string) => async (deps: ContentDeps) => {
  const r = await deps.client.createChatCompletion({ model: deps.model!.id, messages: [{ role: 'user', content: text }] }, { signal: deps.signal });
  return r.data.choices[0].message.content;
};
describe('[#40.5] runContentTask', () => {
  test('[#40.5] a normal reply is returned, under a cancellable progress notification', async () => {
    const out = await runContentTask(world.services, 'summary', 'Summarising…', ask('Say hello'));
    assert.match(String(out), /Say hello/);
    assert.equal(double.progress[0].title, 'Summarising…');
    assert.equal(double.progress[0].cancellable, true);
    assert.equal(double.messages.length, 0);
  });

  test('[#40.5] a reply cut off by the output limit: a modal whose default is Discard; Escape discards', async () => {
    const out = await runContentTask(world.services, 'summary', 'Summarising…', ask('Summarise [[finish:length]]'));
    assert.equal(out, undefined);
    const [m] = double.messages;
    assert.equal(m.options.modal, true);
    assert.match(m.message, /^Summarising: the result may be incomplete\./);
    assert.equal(m.options.detail, 'Nothing was inserted. Use the result anyway, or discard it?');
    assert.notEqual(m.defaultTitle, 'Use Anyway');
  });

  test('[#40.5] Use Anyway keeps the cut-off result', async () => {
    double.answer('Use Anyway');
    assert.match(String(await runContentTask(world.services, 'summary', 'Summarising…', ask('Summarise [[finish:length]]'))), /\S/);
  });

  test('[#40.5] a failure: undefined, a log line and one error notification with Retry', async () => {
    world.gw.faults.add({ kind: 'server_error', route: '/v1/chat/completions' });
    let retried = 0;
    const out = await runContentTask(world.services, 'summary', 'Summarising…', ask('hi'), () => retried++);
    assert.equal(out, undefined);
    await until(() => double.messages.some((m) => m.severity === 'error'));
    const err = double.messages.find((m) => m.severity === 'error')!;
    assert.match(err.message, /^Summarising/);
    assert.ok(err.titles.includes('Retry'));
    assert.match(double.outputChannels.find((c) => c.name === 'AI Gateway')!.lines.join('\n'), /Summarising… failed: /);
  });

  test('[#40.5] no API key: nothing reaches the gateway\'s chat route', async () => {
    await world.services.keys.remove(world.services.keys.active!.id);
    const out = await runContentTask(world.services, 'summary', 'Summarising…', ask('hi'));
    assert.equal(out, undefined);
    assert.equal(world.gw.events.list('chat-request').length, 0);
  });
});

describe('[#40.5] proposeOffsetEdits', () => {
  test('[#40.5] edits in any order become one proposal; Discard writes nothing, Accept writes them all', async () => {
    const doc = double.openDocument('<img src="a.png">\n<img src="b.png">\n', { uri: vscode.Uri.file('/w/page.html') }) as unknown as vscode.TextDocument;
    const edits = [
      { start: 34, end: 34, newText: ' alt="B"' },
      { start: 16, end: 16, newText: ' alt="A"' },
    ];
    double.answer('Discard');
    assert.equal(await proposeOffsetEdits(doc, edits, 'Alt text'), false);
    assert.equal(doc.getText(), '<img src="a.png">\n<img src="b.png">\n');
    double.answer('Accept');
    assert.equal(await proposeOffsetEdits(doc, edits, 'Alt text'), true);
    assert.equal(doc.getText(), '<img src="a.png" alt="A">\n<img src="b.png" alt="B">\n');
  });
});
