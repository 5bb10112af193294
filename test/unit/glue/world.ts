/**
 * The set-up most glue tests share, once: a local gateway for the file, and for each test a reset
 * `vscode` double pointed at it, a fresh extension context (the double gives each its own temporary
 * storage folder), `Services` over it with a User key active, and optionally a feature registered.
 * Everything is torn down after each test. Import the double first in the test file, as always.
 *
 *   const world = glueWorld({ register: registerMedia });
 *   test('…', async () => { await world.services.keys.…; world.gw.events.list(); });
 */
import { after, afterEach, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { double, type DoubleExtensionContext } from '../vscodeDouble';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import type { GatewayOptions } from '../../localGateway/context';
import { LOCAL_KEYS } from '../../localGateway/keys';
import { Services } from '../../../src/services';

export interface GlueWorld {
  readonly gw: RunningGateway;
  readonly ctx: DoubleExtensionContext;
  readonly services: Services;
  /** The workspace folder of the test (its real path), when the options asked for one. */
  readonly workspace: string;
}

export interface GlueWorldOptions {
  /** The local gateway's options (extra models, no chunk delay, ...); started once for the file. */
  gateway?: GatewayOptions;
  /** The key made active before each test; `false` for none (default: the local gateway's full User key). */
  key?: string | false;
  /** Settings (global scope) besides `aiGateway.baseUrl`, which always points at the local gateway. */
  config?: Record<string, unknown>;
  /** A feature's registrar, run after the key is added; its disposable is disposed after each test. */
  register?: (services: Services) => vscode.Disposable;
  /**
   * A workspace folder made for each test, before `register`: relative path → content, written to the
   * disk (the workspace boundary checks read it) and to the double's in-memory workspace.fs. It is the
   * only workspace folder, and is removed after the test.
   */
  workspace?: Record<string, string | Uint8Array>;
}

export function glueWorld(options: GlueWorldOptions = {}): GlueWorld {
  let gw: RunningGateway | undefined;
  let ctx: DoubleExtensionContext | undefined;
  let services: Services | undefined;
  let registered: vscode.Disposable | undefined;
  let workspace: string | undefined;
  before(async () => {
    gw = await startGateway(options.gateway);
  });
  after(() => gw?.close());
  beforeEach(async () => {
    gw!.reset();
    double.reset();
    double.setConfig('aiGateway.baseUrl', gw!.url, 'global');
    for (const [key, value] of Object.entries(options.config ?? {})) double.setConfig(key, value, 'global');
    if (options.workspace) {
      workspace = await realpath(await mkdtemp(join(tmpdir(), 'glue-ws-')));
      for (const [path, content] of Object.entries(options.workspace)) {
        await mkdir(dirname(join(workspace, path)), { recursive: true });
        await writeFile(join(workspace, path), content);
        double.writeFile(join(workspace, path), content);
      }
      double.setWorkspaceFolders([workspace]);
    }
    ctx = double.extensionContext();
    services = new Services(ctx as unknown as vscode.ExtensionContext);
    const key = options.key ?? LOCAL_KEYS.userFull;
    if (key !== false) await services.keys.add('local', key, { activate: true });
    registered = options.register?.(services);
  });
  afterEach(async () => {
    registered?.dispose();
    // A reply's cost is written to the ledger without the command waiting for it: done before the folder goes.
    await services?.spend.whenIdle();
    services?.dispose();
    // The double's temporary folder holds this context's global storage, workspace storage and logs.
    if (ctx) await rm(dirname(ctx.globalStorageUri.fsPath), { recursive: true, force: true });
    if (workspace) await rm(workspace, { recursive: true, force: true });
    registered = undefined;
    workspace = undefined;
  });
  const live = <T>(name: string, value: T | undefined): T => {
    if (value === undefined) throw new Error(`glueWorld: ${name} is only there inside a test`);
    return value;
  };
  return {
    get gw() {
      return live('gw', gw);
    },
    get ctx() {
      return live('ctx', ctx);
    },
    get services() {
      return live('services', services);
    },
    get workspace() {
      return live('workspace', workspace);
    },
  };
}

/**
 * Waits until `pred` holds, yielding to timers and I/O between checks. The bound (about 30 s) only
 * decides when a test that will fail says so; a passing test waits exactly as long as the condition.
 */
export async function until(pred: () => boolean, what = 'the condition'): Promise<void> {
  for (let i = 0; i < 3100 && !pred(); i++) await new Promise((r) => setTimeout(r, i < 100 ? 0 : 10));
  assert.ok(pred(), `${what} never held`);
}
