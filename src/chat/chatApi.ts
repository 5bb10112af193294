/**
 * The chat feature's façade: the only place in src/chat that loads a lazily loaded chunk. The chat's
 * wiring (src/chat/chatWiring.ts: the controllers, the one history store, the agent tools, the editor
 * host) is in dist/editor.js; the chat reaches dist/core.js (the gateway client) only through
 * `services.getClient()`, as before.
 */
import type * as vscode from 'vscode';
import { loadEditorChunk } from '../lazy';
import type { Services } from '../services';
import type { ChatWiring } from './chatWiring';

export type { ChatWiring } from './chatWiring';

/** Loads dist/editor.js (on first use; throws if the chunk is missing) and creates the chat's wiring. */
export function chatWiring(services: Services, lastEditor: () => vscode.TextEditor | undefined): ChatWiring {
  return loadEditorChunk().chat.createChatWiring(services, lastEditor);
}
