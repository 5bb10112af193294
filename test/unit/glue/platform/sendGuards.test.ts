/**
 * [#40.5] The questions asked before content is sent and the hand-off to the chat, with the real
 * Services against the vscode double and the local gateway: the cost of a large prompt
 * (src/platform/costConfirm.ts, contentSend.ts), reading local images in Restricted Mode, the default
 * model of a content command (defaultModel.ts) and "Continue in Chat" (chatHandoff.ts).
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { glueWorld } from '../world';
import { confirmCostBeforeSending } from '../../../../src/platform/costConfirm';
import { confirmContentSend, confirmReadLocalImages, imageForRef, workspaceRoots } from '../../../../src/platform/contentSend';
import { contentModel } from '../../../../src/platform/defaultModel';
import { continueInChat, CHAT_HISTORY_DIR } from '../../../../src/platform/chatHandoff';

const world = glueWorld();

const LARGE = 'A long document paragraph with words. '.repeat(300); // over 8,000 characters
const count = () => world.gw.events.list('request').filter((e) => String(e.path).endsWith('/count_tokens')).length;

describe('[#40.5] the cost of a large prompt, before sending (costConfirm.ts, contentSend.ts)', () => {
  test('[#40.5] a short prompt is sent without a question or a count', async () => {
    const model = (await contentModel(world.services, 'summary'))!.id;
    assert.equal(await confirmCostBeforeSending(world.services, { operation: 'Summarise', modelId: model, text: 'short' }), true);
    assert.equal(double.messages.length, 0);
    assert.equal(count(), 0);
  });

  test('[#40.5] a large prompt: counted by the gateway, then a modal whose default is "Don\'t Send"; Escape sends nothing', async () => {
    const model = (await contentModel(world.services, 'summary'))!.id;
    assert.equal(await confirmCostBeforeSending(world.services, { operation: 'Summarise', modelId: model, text: LARGE }), false);
    assert.equal(count(), 1);
    const [m] = double.messages;
    assert.equal(m.options.modal, true);
    assert.match(m.message, new RegExp(`^Summarise: the prompt costs [0-9.]+ credits? on ${model.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\.$`));
    assert.match(m.options.detail ?? '', /^The prompt's cost is exact: [0-9,]+ tokens counted by the gateway\./);
    assert.deepEqual([m.titles, m.defaultTitle], [["Don't Send", 'Send'], "Don't Send"]);
  });

  test('[#40.5] [#41.9] Send sends', async () => {
    const model = (await contentModel(world.services, 'summary'))!.id;
    double.answer('Send');
    assert.equal(await confirmContentSend(world.services, 'Summarise', async () => model, LARGE), true);
  });

  test('[#40.5] the count fails: the cost is an estimate, and the question is still asked', async () => {
    double.setConfig('aiGateway.retry.maxAttempts', 1, 'global');
    world.gw.faults.add({ kind: 'server_error', route: '/v1/messages/count_tokens' });
    const model = (await contentModel(world.services, 'summary'))!.id;
    assert.equal(await confirmCostBeforeSending(world.services, { operation: 'Summarise', modelId: model, text: LARGE }), false);
    assert.match(double.messages[0].message, /\(estimate\)\.$/);
  });

  test('[#40.5] with no prompt text only the budget decides (no cost question)', async () => {
    assert.equal(await confirmContentSend(world.services, 'Alt text', async () => undefined), true);
    assert.equal(double.messages.length, 0);
  });
});

describe('[#40.5] local images and workspace roots (contentSend.ts)', () => {
  test('[#40.5] [#41.9] Restricted Mode: reading local images asks first; the safe "Don\'t Read" is the default; the question asks what the button does (not "Continue?")', async () => {
    assert.equal(await confirmReadLocalImages(3), false);
    const [m] = double.messages;
    assert.equal(m.options.modal, true);
    assert.match(m.message, /will read 3 local image files from it and send them to the AI Gateway\. Read and send them\?$/);
    assert.ok(m.titles.includes('Read 3 Files'));
    assert.notEqual(m.defaultTitle, 'Read 3 Files');
    double.answer('Read 1 File');
    assert.equal(await confirmReadLocalImages(1, true), true);
    assert.match(double.messages[1].message, /^This workspace is in Restricted Mode\. Generating alt text for all images will read 1 local image file/);
  });

  test('[#40.5] the document\'s own folder comes first among the roots; non-file folders are left out', () => {
    double.setWorkspaceFolders(['/a', '/b', vscode.Uri.parse('vscode-vfs://github/x')]);
    assert.deepEqual(workspaceRoots(vscode.Uri.file('/b/post.md')), ['/b', '/a']);
    assert.deepEqual(workspaceRoots(), ['/a', '/b']);
  });

  test('[#40.5] a remote image is passed as its URL; a relative image in a non-file document cannot be read', async () => {
    const doc = { uri: vscode.Uri.file('/w/post.md'), getText: () => '' };
    assert.deepEqual(await imageForRef(doc, { src: 'https://cdn.example/a.png' } as never), { kind: 'url', url: 'https://cdn.example/a.png' });
    const remoteDoc = { uri: vscode.Uri.parse('vscode-vfs://github/x/post.md'), getText: () => '' };
    await assert.rejects(imageForRef(remoteDoc, { src: 'img/a.png' } as never), /Images next to vscode-vfs: documents cannot be read; only files on disk are\./);
  });
});

describe('[#40.5] the default model and Continue in Chat (defaultModel.ts, chatHandoff.ts)', () => {
  test('[#40.5] a content command\'s model is the catalog\'s default for its capability', async () => {
    const m = await contentModel(world.services, 'summary');
    assert.ok(m?.id, 'a summary model');
    const listed = world.gw.events.list('request').filter((e) => e.path === '/v1/models').length;
    assert.equal(listed, 1, 'the catalog was fetched once');
    assert.ok(typeof m.context_window === 'number' && m.context_window > 0);
  });

  test('[#40.5] Continue in Chat saves the turn as a conversation and opens it in a chat tab', async () => {
    const id = await continueInChat(world.services, { modelId: 'openai/gpt-test', systemPrompt: 'Be brief.', prompt: 'Summarise this post', attachments: [{ label: 'post.md', content: 'Hello' }], reply: 'A short summary.' });
    assert.deepEqual(double.executed.filter((e) => e.command === 'aiGateway.chat.openConversation').map((e) => e.args), [[id]]);
    const saved = JSON.parse(await readFile(join(world.ctx.globalStorageUri.fsPath, CHAT_HISTORY_DIR, `${id}.json`), 'utf8'));
    const text = JSON.stringify(saved);
    assert.ok(text.includes('Summarise this post') && text.includes('A short summary.') && text.includes('Be brief.') && text.includes('post.md'));
  });
});
