/**
 * #29.1: every command the sandbox's sample post and `npm start`'s instructions name exists, under that
 * title, in package.json (the post once named "AI Gateway: Open Chat" when no such command existed), and
 * the picture the post links is a real JPEG in the sample workspace.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readManifest } from '../../scripts/manifestNls.mjs';
import { startGateway } from '../localGateway/server';
import { LOCAL_PROJECT, mintLocalJwt } from '../localGateway/mcpJwt';
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

  test('[#29.1] the hosting ids to paste stand in one column, however long the site or account name', () => {
    const text = startText({
      url: 'u',
      gatewayUrl: 'g',
      localGateway: true,
      hostingUrl: 'h',
      local: { userKey: 'k', revokedKey: 'r', mcpOnlyKey: 'm', hostingUser: 'o', hostingPassword: 'p', hostingIds: [{ what: 'install', name: 'blogprod', id: 'ID-1' }, { what: 'destination account', name: 'destination-agency', id: 'ID-3' }] },
      seconds: 1,
    });
    const lines = text.split('\n').filter((l) => /ID-\d$/.test(l));
    assert.equal(lines.length, 2);
    assert.equal(lines[0]!.indexOf('ID-1'), lines[1]!.indexOf('ID-3'), lines.join('\n'));
    assert.match(lines[1]!, /destination-agency\s{2,}ID-3$/);
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

  test('[#41.7] the start output prints an identity token and project the local gateway\'s usage API accepts', async () => {
    const token = mintLocalJwt({ exp: Math.floor(Date.now() / 1000) + 30 * 86400 });
    const text = startText({
      url: 'u',
      gatewayUrl: 'g',
      localGateway: true,
      seconds: 1,
      local: { userKey: 'k', revokedKey: 'r', mcpOnlyKey: 'm', hostingUser: 'o', hostingPassword: 'p', hostingIds: [], usage: { identityToken: token, projectId: LOCAL_PROJECT, days: 30 } },
    });
    assert.deepEqual(missing(text), []);
    assert.match(text, /4\. Usage with the gateway's figures, filters and Group by: "AI Gateway: Set Identity Token \(JWT\) for Usage\.\.\."/);
    const printed = /^\s+(eyJ[\w-]+\.[\w-]+\.[\w-]+)$/m.exec(text)?.[1];
    const project = /aiGateway\.analytics\.projectId to (\S+)/.exec(text)?.[1];
    assert.ok(printed && project, text);
    const gw = await startGateway();
    try {
      const start = Math.floor(Date.now() / 1000) - 3600;
      const res = await fetch(`${gw.url}/v1/analytics?project_id=${project}&start_time=${start}&bucket_width=1h`, { headers: { Authorization: `Bearer ${printed}` } });
      assert.equal(res.status, 200, await res.clone().text());
      const refused = await fetch(`${gw.url}/v1/analytics?project_id=${project}&start_time=${start}&bucket_width=1h`, { headers: { Authorization: `Bearer ${printed.slice(0, -2)}xx` } });
      assert.equal(refused.status, 401, 'the gateway checks the token it accepted');
    } finally {
      await gw.close();
    }
    assert.doesNotMatch(REMOTE_TEXT, /Identity Token/, 'a real gateway: no local token');
  });
});
