/**
 * [#41.2] The walkthrough's progress helper (src/platform/walkthroughProgress.ts) and the features that
 * call it, with the real Services against the vscode double and the local gateway: alt text done through
 * the quick fix (a command with an object argument, which `onCommand:` never counted) and through
 * Generate Alt Text for All Images ticks "Generate alt text on a post" by its context key.
 * The tool panel's run and `@gateway` are checked in their own tests (mcpGlue, participantHandler).
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { glueWorld } from '../world';
import { markStepDone, stepDoneContextKey } from '../../../../src/platform/walkthroughProgress';
import { altTextAtCursor, fixAllAltText } from '../../../../src/content/altTextCommands';

const POST = '# Harbour\n\n![](https://example.test/harbour.png)\n\nBoats.\n';
const world = glueWorld({ config: { 'aiGateway.retry.maxAttempts': 1 } });

/** The values the context key was set to, in order. */
const contextSet = (key: string) => double.executed.filter((e) => e.command === 'setContext' && e.args[0] === key).map((e) => e.args[1]);

describe('[#41.2] walkthrough steps tick however the thing is done', () => {
  test('[#41.2] markStepDone sets the step\'s context key to true, the key the manifest\'s onContext event names', () => {
    markStepDone('runTool');
    assert.deepEqual(contextSet('aiGateway.done.runTool'), [true]);
    assert.equal(stepDoneContextKey('altText'), 'aiGateway.done.altText');
    assert.deepEqual(contextSet('aiGateway.done.altText'), [], 'only the step named');
  });

  test('[#41.2] the quick fix (Generate alt text with its { uri, offset } argument) ticks "Generate alt text on a post"', async () => {
    const doc = double.openDocument(POST, { uri: vscode.Uri.file('/w/post.md'), languageId: 'markdown' });
    double.answer('Discard'); // the diff it proposes: generated, not written
    await altTextAtCursor(world.services, { uri: doc.uri, offset: POST.indexOf('![]') + 2 });
    assert.deepEqual(contextSet('aiGateway.done.altText'), [true]);
  });

  test('[#41.2] Generate Alt Text for All Images (the file quick fix, a Uri argument) ticks it too', async () => {
    const doc = double.openDocument(POST, { uri: vscode.Uri.file('/w/post2.md'), languageId: 'markdown' });
    double.answer('Discard');
    await fixAllAltText(world.services, doc.uri);
    assert.deepEqual(contextSet('aiGateway.done.altText'), [true]);
  });

  test('[#41.2] no step ticks when nothing was generated (no image under the cursor)', async () => {
    const doc = double.openDocument('# No images\n', { uri: vscode.Uri.file('/w/plain.md'), languageId: 'markdown' });
    await altTextAtCursor(world.services, { uri: doc.uri, offset: 2 });
    assert.deepEqual(contextSet('aiGateway.done.altText'), []);
  });
});
