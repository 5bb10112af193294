/**
 * The shared set-up of the chat controller tests (plain chat, agent chat, Chat with Agent): one real
 * local gateway per test file with its model list, a fresh history folder per test, and an editor host
 * that does nothing unless a test overrides a method. Call useControllerRig at the top level of the
 * file; its fields are read inside tests, after the hooks have run.
 */
import { after, before, beforeEach } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { createGatewayClient } from '../../../src/core/gateway/gatewayClient';
import type { Model } from '../../../src/core/gateway/types';
import type { ChatEditorHost } from '../../../src/core/chat/chatController';

export interface ControllerRig {
  readonly gw: RunningGateway;
  /** The local gateway's catalog, read once per file. */
  readonly models: Model[];
  /** This test's history folder (a new one per test). */
  readonly dir: string;
}

export function useControllerRig(tmpPrefix: string): ControllerRig {
  const state: { gw?: RunningGateway; models?: Model[]; dir?: string } = {};
  const dirs: string[] = [];
  before(async () => {
    state.gw = await startGateway();
    const client = createGatewayClient({ baseUrl: state.gw.url, getKey: async () => undefined, userAgent: 'test' });
    state.models = (await client.listModels()).data.data;
  });
  after(async () => {
    await state.gw?.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });
  beforeEach(async () => {
    state.gw?.reset();
    state.dir = await mkdtemp(join(tmpdir(), tmpPrefix));
    dirs.push(state.dir);
  });
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`${what} is read before the rig's hooks ran`);
    return v;
  };
  return {
    get gw() {
      return need(state.gw, 'gw');
    },
    get models() {
      return need(state.models, 'models');
    },
    get dir() {
      return need(state.dir, 'dir');
    },
  };
}

/** An editor host whose every action does nothing (confirmations say no, context overflow says go on). */
export function quietEditorHost(overrides: Partial<ChatEditorHost> = {}): ChatEditorHost {
  return {
    copy: async () => {},
    insertCode: async () => {},
    newFile: async () => {},
    openLink: async () => {},
    setApiKey: async () => {},
    pickAttachments: async () => [],
    askTitle: async () => undefined,
    confirmDelete: async () => false,
    confirmContextOverflow: async () => true,
    exportMarkdown: async () => {},
    showError: () => {},
    ...overrides,
  };
}
