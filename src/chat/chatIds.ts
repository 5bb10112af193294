/**
 * The chat's contributed ids (package.json), shared by its activation part (src/chat/registerChat.ts)
 * and its lazily loaded wiring (src/chat/chatWiring.ts, imported on first use).
 */
export const CHAT_VIEW_ID = 'aiGateway.chat';
/** The editor-area chat tab; restored after a reload (activation event onWebviewPanel:aiGateway.chatPanel). */
export const CHAT_PANEL_VIEW_TYPE = 'aiGateway.chatPanel';

/**
 * The chat view and chat tabs keep their webview while hidden. Showing the chat again is then a matter
 * of one frame (no reload of the document, the script, `ready` and the host's state), and what the
 * user had there (a reply still streaming, where the list was scrolled, an open tool call, the draft)
 * is as they left it. The cost is one kept webview document per chat, which is what a chat is for.
 */
export const CHAT_RETAINED = true;
