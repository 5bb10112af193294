/**
 * The chat page's one line to the host: VS Code's webview API, acquired once. Messages go out only
 * through src/protocol/chatProtocol.ts's types; the saved state is just the draft text.
 */
import { chatRequestClient, type WebviewToHost } from '../../protocol/chatProtocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export const vscode = acquireVsCodeApi();

export const post = (m: WebviewToHost): void => vscode.postMessage(m);

/**
 * The page's questions to the host (`#` items, earlier messages, the prompt's cost, a reply's rating):
 * one pending map; an answer to a question no longer pending (stale, superseded) is dropped.
 */
export const requests = chatRequestClient(post);
