/**
 * The chat page's one line to the host: VS Code's webview API, acquired once. Messages go out only
 * through src/protocol/chatProtocol.ts's types; the saved state is just the draft text.
 */
import type { WebviewToHost } from '../../protocol/chatProtocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export const vscode = acquireVsCodeApi();

export const post = (m: WebviewToHost): void => vscode.postMessage(m);
