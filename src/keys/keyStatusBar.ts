/** The status bar item: active key name and type; click switches keys (or adds the first one). */
import * as vscode from 'vscode';
import { Disposable } from '../core/disposables';
import type { KeyStore } from '../core/keys/keyStore';

export class KeyStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(private readonly keys: KeyStore) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('aiGateway.apiKey', vscode.StatusBarAlignment.Right, 100));
    this.item.name = 'AI Gateway API Key';
    this._register(keys.onDidChange(() => this.render()));
    // globalState written by another window may land after its secrets event: re-read on focus.
    this._register(vscode.window.onDidChangeWindowState((s) => s.focused && this.render()));
    this.render();
    this.item.show();
  }

  private render(): void {
    const status = this.keys.status;
    switch (status.kind) {
      case 'none':
        this.item.text = '$(key) Set API Key';
        this.item.tooltip = 'AI Gateway: no API key. Click to add one.';
        this.item.command = 'aiGateway.addApiKey';
        this.item.backgroundColor = undefined;
        break;
      case 'ok':
        this.item.text = `$(key) ${status.key.name} (${status.key.type})`;
        this.item.tooltip = `AI Gateway API key "${status.key.name}", ${status.key.type} key ending in …${status.key.suffix}. Click to switch.`;
        this.item.command = 'aiGateway.switchApiKey';
        this.item.backgroundColor = undefined;
        break;
      case 'missing-secret':
        this.item.text = `$(warning) ${status.key.name} (${status.key.type})`;
        this.item.tooltip = `The secret of API key "${status.key.name}" is missing from the system keychain. Click to re-enter or switch.`;
        this.item.command = 'aiGateway.switchApiKey';
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
    }
  }
}
