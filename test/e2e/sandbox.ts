/**
 * The sandbox `npm start` sets up (scripts/start.ts), shared with the journeys that follow it: the sample
 * workspace (a blog post and the picture it shows) and the instructions printed when the editor is ready.
 * Every command title either of them names must exist in package.json, and every feature they mention
 * must work on the first try against the local gateway: test/unit/sandboxText.test.ts checks the titles,
 * test/e2e/sandbox.e2e.ts follows the text.
 *
 * No imports from src/ and nothing heavy: the unit tier loads this file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SAMPLE_POST = `---
title: Hello from the AI Gateway sandbox
tags: []
---

# Hello from the AI Gateway sandbox

This is a sample blog post for trying the content tools. Run
**AI Gateway: Summarise Selection or Document** to summarise it, or
**AI Gateway: Suggest Categories and Tags** to add tags to the front matter above.

The picture below has no alt text yet: click it, open the light bulb (Ctrl+.)
and choose **Generate alt text**.

![](images/sunset.jpg)

The gateway streams chat replies token by token. Open **AI Gateway: Open Chat**
(Ctrl+Shift+Alt+K) and ask it anything; select a sentence and run
**AI Gateway: Add Selection to Chat** (Ctrl+Shift+Alt+A) to ask about it.
`;

/** Where the sample post lives in the workspace, and the picture it links (relative to the post). */
export const SAMPLE_POST_PATH = 'posts/hello.md';
export const SAMPLE_IMAGE_PATH = 'posts/images/sunset.jpg';

/** A real 96×64 JPEG of a sunset (test/e2e/fixtures/sunset.jpg, 1.5 KB). */
export function sampleImage(): Buffer {
  return readFileSync(join(__dirname, 'fixtures', 'sunset.jpg'));
}

/** The sample workspace: relative path -> content. */
export function sampleWorkspaceFiles(): Record<string, string | Buffer> {
  return { [SAMPLE_POST_PATH]: SAMPLE_POST, [SAMPLE_IMAGE_PATH]: sampleImage() };
}

/**
 * The addresses `npm start` writes into the sandbox's settings for a local gateway: the gateway, and its
 * hosting account API under /hosting (test/localGateway/hosting.ts).
 */
export function sandboxAddresses(gatewayUrl: string): Record<string, string> {
  return { 'aiGateway.baseUrl': gatewayUrl, 'aiGateway.hosting.baseUrl': `${gatewayUrl}/hosting` };
}

export interface StartTextOptions {
  /** The editor's address, with the sample workspace open. */
  url: string;
  /** The gateway's address, and whether it is the local one this run started. */
  gatewayUrl: string;
  localGateway: boolean;
  /** The hosting API address written to aiGateway.hosting.baseUrl, if any. */
  hostingUrl?: string;
  /** The local gateway's keys and hosting sign-in (only shown for the local gateway). */
  local?: {
    userKey: string;
    revokedKey: string;
    /** A Restricted key with only the mcp scope (write): Check API Key lists it scope by scope. */
    mcpOnlyKey: string;
    hostingUser: string;
    hostingPassword: string;
    /** Ids the hosting commands ask for, with the names the local hosting API gives them. */
    hostingIds: Array<{ what: string; name: string; id: string }>;
    /** An identity token (JWT) the local gateway's usage API accepts, and its project (#41.7). */
    usage?: { identityToken: string; projectId: string; days: number };
  };
  /** Seconds code-server took to listen. */
  seconds: number;
}

/** What `npm start` prints once the editor is ready. */
export function startText(o: StartTextOptions): string {
  const lines: string[] = [];
  lines.push(`AI Gateway sandbox is ready (code-server listening after ${o.seconds.toFixed(1)} s).`, '');
  lines.push(`  Open:     ${o.url}`);
  lines.push(`  Gateway:  ${o.localGateway ? `${o.gatewayUrl} (local, fake models and keys)` : `${o.gatewayUrl} (from AI_GATEWAY_BASE_URL, written to aiGateway.baseUrl)`}`);
  if (o.hostingUrl) lines.push(`  Hosting:  ${o.hostingUrl} (written to aiGateway.hosting.baseUrl)`);
  lines.push('');
  if (o.local) {
    lines.push(
      `  1. F1 -> "AI Gateway: Add API Key", any name, then paste`,
      `       ${o.local.userKey}`,
      `     (a local User key with full access; the key is checked with the gateway before it is saved.`,
      `     Others are in test/localGateway/keys.ts, e.g. ${o.local.revokedKey} is revoked and refused,`,
      `     and ${o.local.mcpOnlyKey} is Restricted to the mcp scope: "AI Gateway: Check API Key" lists what it can do.)`,
    );
  } else {
    lines.push(`  1. F1 -> "AI Gateway: Add API Key" and paste a key created in the account portal.`);
  }
  lines.push(
    `  2. Open posts/hello.md in the Explorer: it walks you through summaries, tags and alt text.`,
    `  3. "AI Gateway: Open Chat" (Ctrl+Shift+Alt+K): pick a model and send a message.`,
  );
  if (o.local && o.hostingUrl) {
    lines.push(
      `  4. Hosting: "AI Gateway: Set Hosting API Credentials...", username ${o.local.hostingUser}, password ${o.local.hostingPassword}.`,
      `     Then "AI Gateway: Edit Cache Exclusions" or "AI Gateway: Transfer Site…", and paste an id (later runs offer it again):`,
      // One column for the ids, as wide as the longest label ("destination account destination-agency" is 38).
      ...((w) => o.local.hostingIds.map((h) => `       ${`${h.what} ${h.name}`.padEnd(w)}  ${h.id}`))(Math.max(...o.local.hostingIds.map((h) => `${h.what} ${h.name}`.length))),
    );
  } else if (o.hostingUrl) {
    lines.push(`  4. Hosting: "AI Gateway: Set Hosting API Credentials..." with your hosting API username and password.`);
  }
  if (o.local?.usage) {
    const n = o.hostingUrl ? 5 : 4;
    lines.push(
      `  ${n}. Usage with the gateway's figures, filters and Group by: "AI Gateway: Set Identity Token (JWT) for Usage...", paste`,
      `       ${o.local.usage.identityToken}`,
      `     (a local identity token, valid ${o.local.usage.days} days); set aiGateway.analytics.projectId to ${o.local.usage.projectId}`,
      `     (or run "AI Gateway: Show Usage Report (Markdown)" once, which asks for it), then "AI Gateway: Show Usage".`,
    );
  }
  lines.push('', `  Ctrl+C stops code-server${o.localGateway ? ' and the local gateway' : ''}. Logs: .cache/sandbox/code-server.log`, '');
  return lines.join('\n');
}

/** Every "AI Gateway: <title>" a text names (quoted or in bold). */
export function commandTitlesIn(text: string): string[] {
  return [...text.matchAll(/AI Gateway: ([^"*\n]+?)(?=["*]|$)/gm)].map((m) => m[1].trim());
}
