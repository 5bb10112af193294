/**
 * VS Code's request messages and parts -> the neutral form of src/core/lm/messages.ts. Classes are
 * matched with instanceof and, for parts that older typings lack (LanguageModelDataPart, stable after
 * our 1.104 floor), by shape. Unknown parts are skipped: VS Code adds part kinds over time (e.g.
 * thinking and cache-control parts) that have no chat-completions equivalent.
 */
import * as vscode from 'vscode';
import type { LmMessage, LmPart } from '../core/lm/messages';

function dataPart(p: unknown): { mimeType: string; data: Uint8Array } | undefined {
  const d = p as { mimeType?: unknown; data?: unknown } | null;
  if (d && typeof d.mimeType === 'string' && d.data instanceof Uint8Array) return { mimeType: d.mimeType, data: d.data };
  return undefined;
}

/** The text of a tool result's content (text parts; JSON/text data parts decoded; others dropped). */
export function toolResultText(content: readonly unknown[]): string {
  const out: string[] = [];
  for (const c of content) {
    if (c instanceof vscode.LanguageModelTextPart) out.push(c.value);
    else if (c instanceof vscode.LanguageModelPromptTsxPart) out.push(typeof c.value === 'string' ? c.value : JSON.stringify(c.value));
    else {
      const d = dataPart(c);
      if (d && (d.mimeType.startsWith('text/') || d.mimeType === 'application/json')) out.push(new TextDecoder().decode(d.data));
      else if (typeof (c as { value?: unknown })?.value === 'string') out.push((c as { value: string }).value);
    }
  }
  return out.join('');
}

export function toLmPart(p: unknown): LmPart | undefined {
  if (p instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: p.value };
  if (p instanceof vscode.LanguageModelToolCallPart) return { kind: 'toolCall', callId: p.callId, name: p.name, input: p.input };
  if (p instanceof vscode.LanguageModelToolResultPart) return { kind: 'toolResult', callId: p.callId, text: toolResultText(p.content) };
  const d = dataPart(p);
  if (d?.mimeType.startsWith('image/')) return { kind: 'image', mimeType: d.mimeType, data: d.data };
  if (d && (d.mimeType.startsWith('text/') || d.mimeType === 'application/json')) return { kind: 'text', text: new TextDecoder().decode(d.data) };
  return undefined;
}

/** VS Code's System role (3) exists at runtime in later versions; User is 1 and Assistant 2. */
function role(r: vscode.LanguageModelChatMessageRole): LmMessage['role'] {
  if (r === vscode.LanguageModelChatMessageRole.Assistant) return 'assistant';
  if (r === vscode.LanguageModelChatMessageRole.User) return 'user';
  return (r as number) === 3 ? 'system' : 'user';
}

export function toLmMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): LmMessage[] {
  return messages.map((m) => ({ role: role(m.role), parts: m.content.map(toLmPart).filter((p): p is LmPart => p !== undefined) }));
}

/** A request message's text, for token counting. */
export function messageText(m: vscode.LanguageModelChatRequestMessage): string {
  return toLmMessages([m])[0]?.parts.map((p) => (p.kind === 'text' || p.kind === 'toolResult' ? p.text : p.kind === 'toolCall' ? `${p.name}${JSON.stringify(p.input)}` : '')).join('') ?? '';
}
