/**
 * [#30.2] No English text reaches a user-visible editor API without vscode.l10n.t / l10n.t: a type-checked
 * scan of src (rawStringScan.ts says what counts as user-visible and what does not).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import ts from 'typescript';
import { scanProgram } from './rawStringScan';

const ROOT = resolve(__dirname, '../../..');
const SRC = join(ROOT, 'src');

/** Folders left out of the scan: none (every feature folder is held to the rule). */
const EXCLUDED: string[] = [];

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config;
  return { ...ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options, noEmit: true };
}

/** A program over the given files; `extra` adds in-memory files (the scanner's own checks). */
function program(files: readonly string[], extra: Record<string, string> = {}): ts.Program {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) => (name in extra ? ts.createSourceFile(name, extra[name]!, lang, true) : getSourceFile(name, lang, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name in extra || fileExists(name);
  return ts.createProgram([...files, ...Object.keys(extra)], options, host);
}

test('[#30.2] no raw English text reaches a notification, quick pick, input box, progress, status bar, tree, diagnostic or dialog in src', () => {
  const files = tsFiles(SRC).filter((f) => !f.startsWith(join(SRC, 'webview') + sep) && !EXCLUDED.some((x) => f.startsWith(x)));
  const findings = scanProgram(program(files), files, SRC);
  assert.deepEqual(
    findings.map((f) => `${f.file}:${f.line} ${f.sink}: ${f.text}`),
    [],
    'wrap these in vscode.l10n.t (editor side) or l10n.t from src/core/l10n.ts',
  );
});

test('[#30.2] the scan finds raw text at every kind of sink and leaves translated text, ids and log lines alone', () => {
  const fixture = join(SRC, '__l10nScanFixture__.ts');
  const code = `
import * as vscode from 'vscode';
import * as l10n from './core/l10n';
import { confirmRisky } from './platform/safeDialog';
import { inputStep } from './platform/stepInput';
import { showErrorNotification } from './platform/errorNotifications';
declare const n: number;
declare const log: { info(line: string): void };
const LABEL = 'Delete Key';
const MAP = { retry: 'Retry' };
export async function f(item: vscode.StatusBarItem, tree: vscode.TreeItem): Promise<void> {
  void vscode.window.showInformationMessage('Deleted ' + n + ' keys.'); // RAW 1
  void vscode.window.showWarningMessage(vscode.l10n.t('Sure?'), { modal: true, detail: \`It costs \${n}.\` }, LABEL); // RAW 2
  await vscode.window.showQuickPick([{ label: '$(add) Add', description: vscode.l10n.t('new') }], { placeHolder: 'Pick one' }); // RAW 2
  await vscode.window.showQuickPick(['One', vscode.l10n.t('Two')]); // RAW 1
  await vscode.window.showInputBox({ prompt: l10n.t('Key'), validateInput: (v) => (v ? undefined : 'Required') }); // RAW 1
  item.text = '$(key) Key'; // RAW 1
  item.tooltip = vscode.l10n.t('Key');
  item.text = '$(sync~spin)';
  tree.description = n > 1 ? 'many' : vscode.l10n.t('one'); // RAW 1
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Loading') }, async (progress) => {
    progress.report({ message: \`\${n}/3\` });
    progress.report({ message: 'Loading' }); // RAW 1
  });
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Counting…' }, async () => undefined); // RAW 1
  await confirmRisky({ message: vscode.l10n.t('Delete?'), safe: 'Keep', action: MAP.retry }); // RAW 2
  await inputStep({ title: 'Add key' }); // RAW 1
  await showErrorNotification(new Error('x'), { context: 'Loading models' }); // RAW 1
  void new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'Bad id'); // RAW 1
  log.info('Deleted ' + n + ' keys');
  await vscode.commands.executeCommand('aiGateway.showLog', 'some text');
  void vscode.workspace.getConfiguration('aiGateway').get<string>('baseUrl', 'https://example.com');
  void new Error('An English error for the log');
  void vscode.window.createOutputChannel('AI Gateway', { log: true });
  await vscode.window.showInputBox({ title: /* not translated: an HTTP header name */ 'Service-Account', placeHolder: /* an example */ 'Authorization' }); // RAW 1
}
`;
  const findings = scanProgram(program([fixture], { [fixture]: code }), [fixture], SRC);
  const lines = code.split('\n');
  const expected = lines.flatMap((l, i) => Array.from({ length: Number(/\/\/ RAW (\d+)/.exec(l)?.[1] ?? 0) }, () => i + 1));
  assert.deepEqual(
    findings.map((f) => f.line),
    expected,
    findings.map((f) => `${f.line} ${f.sink} ${f.text}`).join('\n'),
  );
});
