/** The status bar item: active key name and type; click switches keys (or adds the first one). */
import * as vscode from 'vscode';
import { Disposable } from '../core/disposables';
import type { KeyStore } from '../core/keys/keyStore';

export class KeyStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(private readonly keys: KeyStore) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('aiGateway.apiKey', vscode.StatusBarAlignment.Right, 100));
    this.item.name = vscode.l10n.t('AI Gateway API Key');
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
        this.item.text = `$(key) ${vscode.l10n.t('Set API Key')}`;
        this.item.tooltip = vscode.l10n.t('AI Gateway: no API key. Click to add one.');
        this.item.command = 'aiGateway.addApiKey';
        this.item.backgroundColor = undefined;
        break;
      case 'ok':
        this.item.text = `$(key) ${status.key.name} (${status.key.type})`;
        this.item.tooltip = vscode.l10n.t('AI Gateway API key "{0}", {1} key ending in …{2}. Click to switch.', status.key.name, status.key.type, status.key.suffix);
        this.item.command = 'aiGateway.switchApiKey';
        this.item.backgroundColor = undefined;
        break;
      case 'missing-secret':
        this.item.text = `$(warning) ${status.key.name} (${status.key.type})`;
        this.item.tooltip = vscode.l10n.t('The secret of API key "{0}" is missing from the system keychain. Click to re-enter or switch.', status.key.name);
        this.item.command = 'aiGateway.switchApiKey';
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
    }
  }
}
