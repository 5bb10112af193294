/**
 * "Replace Model ID in the Workspace…" (aiGateway.modelIds.replaceInWorkspace): every file of the
 * workspace that names one model id, as one WorkspaceEdit whose every change needs confirmation, so the
 * editor shows its refactor preview and nothing changes until the user applies it. The search honours
 * `files.exclude` (findFiles with the default excludes) and every `.gitignore` of the workspace, skips
 * binary and oversized files, reads open documents from the editor (unsaved text included), and runs
 * with progress and Cancel. From a quick fix the ids are given; from the palette the user picks them.
 */
import * as vscode from 'vscode';
import type { CommandRegistrar } from '../platform/commands';
import { findAlternative } from '../core/catalog/alternative';
import { modelLifecycle } from '../core/catalog/deprecation';
import { DisposableStore } from '../core/disposables';
import { parseGitignore, type GitignoreRules } from '../core/knowledge/gitignore';
import { isIdShaped } from '../core/modelIds/idScanner';
import { replaceIdEdits } from '../core/modelIds/modelIdFindings';
import { WORKSPACE_REPLACE_LIMITS, gitignoreBase, ignoredByGitignore, lineStarts, looksBinary, positionAt } from '../core/modelIds/workspaceReplace';
import type { Services } from '../services';
import type { ModelIdsServices } from './registerModelIds';
import type { ReplaceInWorkspaceArgs } from './modelIdsFeature';

export function registerModelIdsCommands(services: ModelIdsServices, registerCommand: CommandRegistrar): vscode.Disposable {
  const bag = new DisposableStore();
  bag.add(
    registerCommand('aiGateway.modelIds.replaceInWorkspace', async (arg?: unknown) => {
      const ids = isReplaceArgs(arg) ? arg : await pickIds(services);
      if (!ids) return;
      await replaceInWorkspace(ids);
    }),
  );
  return new vscode.Disposable(() => bag.dispose());
}

function isReplaceArgs(x: unknown): x is ReplaceInWorkspaceArgs {
  const a = x as Partial<ReplaceInWorkspaceArgs> | undefined;
  return typeof a?.from === 'string' && typeof a.to === 'string' && isIdShaped(a.from) && isIdShaped(a.to) && a.from !== a.to;
}

async function pickIds(services: Pick<Services, 'catalog'>): Promise<ReplaceInWorkspaceArgs | undefined> {
  const now = Date.now();
  const models = services.catalog.models;
  const ids = new Set(models.map((m) => m.id));
  const retiring = models.filter((m) => modelLifecycle(m, now).state !== 'active');
  const from = await vscode.window.showQuickPick(
    [
      ...retiring.map((m) => ({ label: m.id, description: `${m.display_name} \u2014 ${modelLifecycle(m, now).state === 'removed' ? vscode.l10n.t('removed') : vscode.l10n.t('deprecated')}`, id: m.id })),
      ...models.filter((m) => !retiring.includes(m)).map((m) => ({ label: m.id, description: m.display_name, id: m.id })),
    ],
    { title: vscode.l10n.t('Replace Model ID in the Workspace (1/2)'), placeHolder: vscode.l10n.t('The model id to replace'), matchOnDescription: true },
  );
  if (!from) return undefined;
  const model = services.catalog.getModel(from.id);
  const alt = model ? findAlternative(model, ids).modelId : undefined;
  const served = models.filter((m) => m.id !== from.id && modelLifecycle(m, now).state !== 'removed');
  served.sort((a, b) => Number(b.id === alt) - Number(a.id === alt));
  const to = await vscode.window.showQuickPick(
    served.map((m) => ({ label: m.id, description: m.id === alt ? vscode.l10n.t('{0} — the named alternative', m.display_name) : m.display_name, id: m.id })),
    { title: vscode.l10n.t('Replace {0} with (2/2)', from.id), placeHolder: vscode.l10n.t('The model id to write instead'), matchOnDescription: true },
  );
  return to ? { from: from.id, to: to.id } : undefined;
}

async function gitignoreRules(folder: vscode.WorkspaceFolder, token: vscode.CancellationToken): Promise<GitignoreRules[]> {
  const files = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/.gitignore'), undefined, 500, token);
  const rules: GitignoreRules[] = [];
  for (const uri of files) {
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      rules.push(parseGitignore(gitignoreBase(vscode.workspace.asRelativePath(uri, false)), new TextDecoder().decode(bytes)));
    } catch {
      // An unreadable .gitignore excludes nothing.
    }
  }
  return rules;
}

interface SearchOutcome {
  edit: vscode.WorkspaceEdit;
  files: number;
  occurrences: number;
  skipped: number;
}

async function search(ids: ReplaceInWorkspaceArgs, progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken): Promise<SearchOutcome | undefined> {
  const edit = new vscode.WorkspaceEdit();
  const outcome: SearchOutcome = { edit, files: 0, occurrences: 0, skipped: 0 };
  const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
  const label = vscode.l10n.t('Replace {0} with {1}', ids.from, ids.to);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const rules = await gitignoreRules(folder, token);
    // `undefined` excludes: the editor applies files.exclude (not search.exclude).
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*'), undefined, WORKSPACE_REPLACE_LIMITS.maxFiles, token);
    let done = 0;
    for (const uri of uris) {
      if (token.isCancellationRequested) return undefined;
      done++;
      if (done % 50 === 0) progress.report({ message: vscode.l10n.t('{0} of {1} files in {2}', done.toLocaleString(vscode.env.language), uris.length.toLocaleString(vscode.env.language), folder.name), increment: (50 / uris.length) * 100 });
      const rel = vscode.workspace.asRelativePath(uri, false);
      if (ignoredByGitignore(rules, rel)) continue;
      let text: string;
      const doc = open.get(uri.toString());
      if (doc) text = doc.getText();
      else {
        try {
          const stat = await vscode.workspace.fs.stat(uri);
          if (stat.size > WORKSPACE_REPLACE_LIMITS.maxFileBytes) {
            outcome.skipped++;
            continue;
          }
          const bytes = await vscode.workspace.fs.readFile(uri);
          if (looksBinary(bytes)) continue;
          text = new TextDecoder().decode(bytes);
        } catch {
          outcome.skipped++;
          continue;
        }
      }
      const edits = replaceIdEdits(text, ids.from, ids.to);
      if (edits.length === 0) continue;
      outcome.files++;
      outcome.occurrences += edits.length;
      const starts = doc ? undefined : lineStarts(text);
      const pos = (offset: number) => {
        if (doc) return doc.positionAt(offset);
        const p = positionAt(starts!, offset);
        return new vscode.Position(p.line, p.character);
      };
      for (const e of edits) edit.replace(uri, new vscode.Range(pos(e.start), pos(e.end)), e.newText, { label, description: rel, needsConfirmation: true });
    }
  }
  return outcome;
}

async function replaceInWorkspace(ids: ReplaceInWorkspaceArgs): Promise<void> {
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Finding {0} in the workspace', ids.from), cancellable: true },
    (progress, token) => search(ids, progress, token),
  );
  if (!outcome) return;
  const skipped = outcome.skipped === 0 ? '' : outcome.skipped === 1 ? vscode.l10n.t('1 file too large or unreadable was not searched') : vscode.l10n.t('{0} files too large or unreadable were not searched', outcome.skipped);
  if (outcome.occurrences === 0) {
    void vscode.window.showInformationMessage(skipped ? vscode.l10n.t('No file in the workspace names {0} ({1}).', ids.from, skipped) : vscode.l10n.t('No file in the workspace names {0}.', ids.from));
    return;
  }
  // Every change needs confirmation: the editor opens its refactor preview; nothing changes until Apply.
  const applied = await vscode.workspace.applyEdit(outcome.edit, { isRefactoring: true });
  if (applied && skipped) void vscode.window.showInformationMessage(vscode.l10n.t('Replaced {0} where the preview was applied ({1}).', ids.from, skipped));
}
