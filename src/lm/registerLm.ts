/**
 * VS Code's own chat and agent mode: the gateway's models as a language model chat provider
 * (vendor `ai-gateway`, activation event onLanguageModelChatProvider:ai-gateway, so VS Code's chat
 * finds them without the user opening one of our views first), plus the spend ledger they record into.
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../core/lifecycle';
import type { Services } from '../services';
import { GatewayChatProvider, VENDOR } from './chatProvider';
import { SpendRecorder } from './spend';

export function registerLm(services: Services): vscode.Disposable {
  const store = new DisposableStore();
  const spend = new SpendRecorder(services);
  const provider = store.add(new GatewayChatProvider(services, spend));
  store.add(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider));
  return { dispose: () => store.dispose() };
}
