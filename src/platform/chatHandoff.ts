/**
 * Handing a conversation to the chat from another feature (Compare Models' "Continue in Chat"), without
 * importing the chat feature: the conversation is written into the chat's history folder through the
 * one history store (src/core/chat/historyStore.ts: atomic write, compare-and-swap, so the chat's own
 * store sees it as another window's save), then the chat's command `aiGateway.chat.openConversation`
 * opens it in a chat tab. The folder name is the chat's (CHAT_HISTORY_DIR, `chat` under global storage).
 */
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import { executeCommand } from './commands';
import type { Services } from '../services';
import type { Usage } from '../core/gateway/types';
import type { ReplyEnd } from '../core/gateway/finishReason';

export const CHAT_HISTORY_DIR = 'chat';

export interface ConversationSeed {
  modelId: string;
  systemPrompt: string;
  /** The user's turn, and the files attached to it (text). */
  prompt: string;
  attachments: Array<{ label: string; content: string }>;
  /** The reply to continue from. */
  reply: string;
  usage?: Usage;
  costNano?: string;
  requestId?: string;
  /** The reply ended otherwise than normally (src/core/gateway/finishReason.ts): kept, so the chat shows it. */
  finish?: ReplyEnd;
}

/** Saves the seed as a new conversation and opens it in the chat. Resolves with the conversation's id. */
export async function continueInChat(services: Pick<Services, 'context' | 'log'>, seed: ConversationSeed): Promise<string> {
  const [{ HistoryStore }, { newConversation, titleFrom }] = await Promise.all([import('../core/chat/historyStore'), import('../core/chat/conversation')]);
  const store = new HistoryStore(vscode.Uri.joinPath(services.context.globalStorageUri, CHAT_HISTORY_DIR).fsPath, undefined, services.log);
  try {
    const now = Date.now();
    const id = randomUUID().replace(/-/g, '');
    const conv = newConversation(id, seed.modelId, now);
    conv.title = titleFrom(seed.prompt);
    conv.systemPrompt = seed.systemPrompt;
    conv.messages = [
      {
        id: randomUUID(),
        role: 'user',
        content: seed.prompt,
        status: 'complete',
        createdAt: now,
        ...(seed.attachments.length ? { attachments: seed.attachments.map((a) => ({ id: randomUUID(), kind: 'file' as const, label: a.label, content: a.content })) } : {}),
      },
      {
        id: randomUUID(),
        role: 'assistant',
        content: seed.reply,
        status: 'complete',
        createdAt: now,
        modelId: seed.modelId,
        ...(seed.usage ? { usage: seed.usage } : {}),
        ...(seed.costNano ? { costNano: seed.costNano } : {}),
        ...(seed.requestId ? { requestId: seed.requestId } : {}),
        ...(seed.finish ? { finish: seed.finish } : {}),
      },
    ];
    await store.save(conv, { expect: null });
    await executeCommand('aiGateway.chat.openConversation', id);
    return id;
  } finally {
    store.dispose();
  }
}
