/**
 * A chat webview's page, started before the chat's code is loaded.
 *
 * The chat's controller is in the chat wiring's chunk, which the first chat view or tab of a window imports. The
 * page (its HTML, script and stylesheet) does not need it, so the view sets its HTML first and the
 * webview loads while the extension host loads the chunk; the page's first messages (`ready`) wait
 * here until the controller takes them.
 */
import type * as vscode from 'vscode';

/** More than a page posts before its controller exists (it posts `ready`, maybe a draft); anything past it is dropped. */
const MAX_QUEUED = 64;

export class ChatPage {
  private queue: unknown[] | undefined = [];
  private readonly early: vscode.Disposable;

  /** Starts holding the webview's messages; `startChatPage` (webviewHtml.ts) then sets its HTML. */
  constructor(readonly webview: vscode.Webview) {
    this.early = webview.onDidReceiveMessage((m: unknown) => {
      if (this.queue && this.queue.length < MAX_QUEUED) this.queue.push(m);
    });
  }

  /** Gives `listener` the messages that came before, then every later one. Once per page. */
  listen(listener: (message: unknown) => void): vscode.Disposable {
    const queued = this.queue ?? [];
    this.queue = undefined;
    this.early.dispose();
    const sub = this.webview.onDidReceiveMessage(listener);
    for (const m of queued) listener(m);
    return sub;
  }
}

/** One turn of the event loop: what was just set on a webview leaves the extension host before a long synchronous load. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
