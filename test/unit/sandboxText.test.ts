/**
 * #29.1: every command the sandbox's sample post and `npm start`'s instructions name exists, under that
 * title, in package.json (the post once named "AI Gateway: Open Chat" when no such command existed), and
 * the picture the post links is a real JPEG in the sample workspace.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readManifest } from '../../scripts/manifestNls.mjs';
import { commandTitlesIn, SAMPLE_IMAGE_PATH, SAMPLE_POST, SAMPLE_POST_PATH, sampleWorkspaceFiles, startText } from '../e2e/sandbox';

// The titles the palette shows in English (package.json names them as "%key%", package.nls.json has the text).
const manifest = readManifest<{ contributes: { commands: Array<{ title: string; category?: string }> } }>();
const titles = new Set(manifest.contributes.commands.filter((c) => c.category === 'AI Gateway').map((c) => c.title));

const LOCAL_TEXT = startText({
  url: 'http://127.0.0.1:1/?folder=x',
  gatewayUrl: 'http://127.0.0.1:2',
  localGateway: true,
  hostingUrl: 'http://127.0.0.1:2/hosting',
  local: { userKey: 'svc_pat_local_x', revokedKey: 'svc_pat_local_r', mcpOnlyKey: 'svc_pat_local_m', hostingUser: 'owner', hostingPassword: 'pw', hostingIds: [{ what: 'install', name: 'blogprod', id: 'id' }] },
  seconds: 1,
});
const REMOTE_TEXT = startText({ url: 'u', gatewayUrl: 'https://g', localGateway: false, hostingUrl: 'https://h', seconds: 1 });

function missing(text: string): string[] {
  return commandTitlesIn(text).filter((t) => !titles.has(t));
}

describe('the sandbox text names only commands that exist', () => {
  test('[#29.1] every "AI Gateway: …" title in the sample post is a declared command', () => {
    assert.ok(commandTitlesIn(SAMPLE_POST).length >= 4, 'the post names its commands');
    assert.deepEqual(missing(SAMPLE_POST), []);
  });

  test('[#29.1] every "AI Gateway: …" title in the npm start output is a declared command (local and real gateway)', () => {
    assert.ok(commandTitlesIn(LOCAL_TEXT).length >= 5);
    assert.deepEqual(missing(LOCAL_TEXT), []);
    assert.deepEqual(missing(REMOTE_TEXT), []);
  });

  test('[#29.1] the check catches a title that is not a command', () => {
    assert.deepEqual(missing('Open **AI Gateway: Open The Chat** and "AI Gateway: Add API Key"'), ['Open The Chat']);
  });

  test('[#39.13] the start output names the mcp-only local key for Check API Key', () => {
    assert.match(LOCAL_TEXT, /svc_pat_local_m is Restricted to the mcp scope: "AI Gateway: Check API Key"/);
  });

  test('[#29.1] the start output says how to sign in to the local hosting API and which ids to give', () => {
    assert.match(LOCAL_TEXT, /Set Hosting API Credentials\.\.\.", username owner, password pw/);
    assert.match(LOCAL_TEXT, /install blogprod\s+id/);
    assert.match(LOCAL_TEXT, /aiGateway\.hosting\.baseUrl/);
  });

  test('[#29.1] the picture the sample post links is a real JPEG next to it', () => {
    const files = sampleWorkspaceFiles();
    const link = /!\[\]\(([^)]+)\)/.exec(SAMPLE_POST)?.[1];
    assert.equal(join(SAMPLE_POST_PATH, '..', link ?? ''), SAMPLE_IMAGE_PATH);
    const jpeg = files[SAMPLE_IMAGE_PATH];
    assert.ok(Buffer.isBuffer(jpeg));
    assert.deepEqual([...jpeg.subarray(0, 3)], [0xff, 0xd8, 0xff], 'JPEG start of image');
    assert.deepEqual([...jpeg.subarray(-2)], [0xff, 0xd9], 'JPEG end of image');
  });
});
