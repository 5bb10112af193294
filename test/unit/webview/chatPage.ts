/**
 * The chat page booted in a DOM (domKit.ts), with the host's messages a test sends it: a state, a
 * reply streaming in, a tool call waiting for approval.
 */
import type { ChatStateView, MessageView, ToolCallView } from '../../../src/protocol/chatProtocol';
import type { HTMLElement, HTMLTextAreaElement } from 'happy-dom';
import { bootWebview, type BootOptions, type WebviewPage } from './domKit';

export const CHAT = 'src/webview/chat/main.ts';

export function message(id: string, role: 'user' | 'assistant', content: string, extra: Partial<MessageView> = {}): MessageView {
  return { id, role, content, status: 'complete', ...extra };
}

export function chatState(messages: MessageView[], extra: Partial<ChatStateView> = {}): ChatStateView {
  return {
    models: [{ id: 'm/a', label: 'Model A', deprecated: false }],
    selectedModelId: 'm/a',
    conversation: { id: 'c1', title: 'Chat', modelId: 'm/a', systemPrompt: '', messages },
    attachments: [],
    busy: false,
    ...extra,
  };
}

export function waitingCall(id = 'call-1', name = 'write_file'): ToolCallView {
  return { id, name, args: '{"path":"a.txt"}', status: 'awaiting-approval', round: 1, approval: { kind: 'write' } };
}

export interface ChatPage extends WebviewPage {
  readonly input: HTMLTextAreaElement;
  readonly messages: HTMLElement;
  /** The live region's text (what a screen reader hears next). */
  announced(): string;
  /** Sends a conversation as the host's `state`. */
  show(messages: MessageView[], extra?: Partial<ChatStateView>): Promise<void>;
  /** A reply starts streaming with a tool call waiting for approval. */
  approvalArrives(call?: ToolCallView): Promise<void>;
}

export async function bootChat(options: BootOptions = {}): Promise<ChatPage> {
  const page = await bootWebview(CHAT, options);
  const doc = page.document;
  const chat = Object.assign(page, {
    input: page.byId<HTMLTextAreaElement>('input'),
    messages: page.byId('messages'),
    announced: () => doc.getElementById('live')?.textContent ?? '',
    show: (messages: MessageView[], extra: Partial<ChatStateView> = {}) => page.receive({ type: 'state', state: chatState(messages, extra) }),
    async approvalArrives(call: ToolCallView = waitingCall()) {
      await page.receive({ type: 'streamStart', requestId: 'r1', message: message('a1', 'assistant', '', { status: 'streaming' }) });
      await page.receive({ type: 'toolCall', requestId: 'r1', call });
    },
  });
  return chat;
}
