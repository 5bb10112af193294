/**
 * The chat's contributed ids (package.json), shared by its activation part (src/chat/registerChat.ts)
 * and its lazily loaded wiring (src/chat/chatWiring.ts, part of dist/editor.js).
 */
export const CHAT_VIEW_ID = 'aiGateway.chat';
/** The editor-area chat tab; restored after a reload (activation event onWebviewPanel:aiGateway.chatPanel). */
export const CHAT_PANEL_VIEW_TYPE = 'aiGateway.chatPanel';
