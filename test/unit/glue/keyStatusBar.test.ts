/**
 * [#40.4] src/keys/keyStatusBar.ts against the vscode double: the status bar item follows the key
 * store's status (none, ok, missing secret) and re-renders on its change event and on window focus.
 */
import { double } from '../vscodeDouble'; // first: points `vscode` at the double
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { KeyStatusBar } from '../../../src/keys/keyStatusBar';
import type { KeyStore } from '../../../src/core/keys/keyStore';

beforeEach(() => double.reset());

function store() {
  const changed = new vscode.EventEmitter<unknown>();
  const s = { status: { kind: 'none' } as unknown, onDidChange: changed.event, fire: () => changed.fire({}) };
  return s;
}
const KEY = { name: 'Work', type: 'live', suffix: 'a1b2' };

describe('[#40.4] the API key status bar item (src/keys/keyStatusBar.ts)', () => {
  test('[#40.4] no key: "Set API Key", runs Add API Key, shown on the right', () => {
    const s = store();
    const bar = new KeyStatusBar(s as unknown as KeyStore);
    const [item] = double.statusBarItems;
    assert.equal(item.id, 'aiGateway.apiKey');
    assert.equal(item.alignment, vscode.StatusBarAlignment.Right);
    assert.equal(item.visible, true);
    assert.equal(item.text, '$(key) Set API Key');
    assert.equal(item.command, 'aiGateway.addApiKey');
    bar.dispose();
    assert.equal(item.visible, false, 'disposing the bar disposes the item');
  });

  test('[#40.4] a key added: the item re-renders on the store event with name, type and suffix', () => {
    const s = store();
    new KeyStatusBar(s as unknown as KeyStore);
    s.status = { kind: 'ok', key: KEY };
    s.fire();
    const [item] = double.statusBarItems;
    assert.equal(item.text, '$(key) Work (live)');
    assert.match(String(item.tooltip), /"Work", live key ending in …a1b2/);
    assert.equal(item.command, 'aiGateway.switchApiKey');
    assert.equal(item.backgroundColor, undefined);
  });

  test('[#40.4] a missing secret: a warning icon and background, and re-read when the window gets focus', () => {
    const s = store();
    new KeyStatusBar(s as unknown as KeyStore);
    s.status = { kind: 'missing-secret', key: KEY };
    const [item] = double.statusBarItems;
    assert.equal(item.text, '$(key) Set API Key', 'not re-rendered before an event');
    double.fireWindowState({ focused: true });
    assert.equal(item.text, '$(warning) Work (live)');
    assert.deepEqual(item.backgroundColor, new vscode.ThemeColor('statusBarItem.warningBackground'));
  });
});
