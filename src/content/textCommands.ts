/**
 * Summarise and Suggest Taxonomy: on the selection, or on the whole document when nothing is selected
 * (also from the explorer, on a file). The document is read when the command starts and written only
 * after a success: summaries go through SummaryResults, chosen terms into the front matter.
 */
import * as vscode from 'vscode';
// Front matter (`yaml`), request mappers and placement: this module is imported on the first command.
import type { Taxonomy } from '../core/content/frontMatter';
import { showErrorNotification } from '../platform/errorNotifications';
import type { ContentServices } from './registerContent';
import { suggestTaxonomy, summarize } from '../core/content/contentClient';
import { mergeTaxonomy, newFrontMatter, readTaxonomy } from '../core/content/frontMatter';
import { documentKind, insertAtSelection, placeBlock } from '../core/content/insertion';
import { requestText, taxonomyAsText } from '../core/content/placement';
import { proposeOffsetEdits, runContentTask } from './contentRunner';
import type { SummaryResults } from './summaryResult';

const docEol = (doc: vscode.TextDocument): '\n' | '\r\n' => (doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');

interface Source {
  doc: vscode.TextDocument;
  selection: { start: number; end: number } | undefined;
}

/** The document to work on: the explorer's file when given, else the active editor with its selection. */
async function sourceFor(arg: unknown): Promise<Source | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (arg instanceof vscode.Uri && arg.toString() !== editor?.document.uri.toString()) {
    return { doc: await vscode.workspace.openTextDocument(arg), selection: undefined };
  }
  if (!editor) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open a document (or select text in one) first.'));
    return undefined;
  }
  const sel = editor.selection;
  return { doc: editor.document, selection: sel.isEmpty ? undefined : { start: editor.document.offsetAt(sel.start), end: editor.document.offsetAt(sel.end) } };
}

export async function summariseCommand(services: ContentServices, results: SummaryResults, arg?: unknown): Promise<void> {
  const source = await sourceFor(arg);
  if (!source) return;
  const { doc } = source;
  const input = requestText(doc.getText(), source.selection, doc.languageId === 'markdown');
  const version = doc.version;
  const out = await runContentTask(
    services,
    'summary',
    input.wholeDocument ? vscode.l10n.t('Summarising the document…') : vscode.l10n.t('Summarising the selection…'),
    (deps) => summarize(deps, { text: input.text, model: deps.model?.id }),
    () => summariseCommand(services, results, arg),
    input.text,
  );
  if (!out) return;
  services.log.info(`Summary made (${out.via === 'chat' ? 'chat fallback' : 'summarize endpoint'}${out.requestId ? `, request ${out.requestId}` : ''}).`);
  await results.show({ source: doc.uri, range: input.range, version, wholeDocument: input.wholeDocument, original: input.text, summary: out.result.summary });
}

interface TermItem extends vscode.QuickPickItem {
  kind?: vscode.QuickPickItemKind;
  term?: string;
  group?: keyof Taxonomy;
}

async function pickTerms(suggested: Taxonomy, existing: Taxonomy): Promise<Taxonomy | undefined> {
  const items: TermItem[] = [];
  for (const group of ['categories', 'tags'] as const) {
    if (suggested[group].length === 0) continue;
    items.push({ label: group === 'categories' ? vscode.l10n.t('Categories') : vscode.l10n.t('Tags'), kind: vscode.QuickPickItemKind.Separator });
    const have = new Set(existing[group].map((t) => t.toLowerCase()));
    for (const term of suggested[group]) {
      const present = have.has(term.toLowerCase());
      items.push({ label: term, description: present ? vscode.l10n.t('already present') : group === 'categories' ? vscode.l10n.t('category') : vscode.l10n.t('tag'), picked: !present, term, group });
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The gateway suggested no categories or tags for this text.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: vscode.l10n.t('Suggested categories and tags'),
    placeHolder: vscode.l10n.t('Choose the terms to keep (Space toggles, Enter confirms)'),
    ignoreFocusOut: true,
  });
  if (!picked || picked.length === 0) return undefined;
  return {
    categories: picked.filter((p) => p.group === 'categories' && p.term).map((p) => p.term as string),
    tags: picked.filter((p) => p.group === 'tags' && p.term).map((p) => p.term as string),
  };
}

export async function suggestTaxonomyCommand(services: ContentServices, arg?: unknown): Promise<void> {
  const source = await sourceFor(arg);
  if (!source) return;
  const { doc } = source;
  const isMarkdown = doc.languageId === 'markdown';
  const input = requestText(doc.getText(), source.selection, isMarkdown);
  const existing = isMarkdown ? readTaxonomy(doc.getText()) : { categories: [], tags: [] };
  const out = await runContentTask(
    services,
    'taxonomy',
    vscode.l10n.t('Suggesting categories and tags…'),
    (deps) => suggestTaxonomy(deps, { text: input.text, model: deps.model?.id, existingCategories: existing.categories, existingTags: existing.tags }),
    () => suggestTaxonomyCommand(services, arg),
    input.text,
  );
  if (!out) return;
  services.log.info(`Taxonomy suggested (${out.via === 'chat' ? 'chat fallback' : 'suggest-taxonomy endpoint'}${out.requestId ? `, request ${out.requestId}` : ''}).`);
  const chosen = await pickTerms(out.result, existing);
  if (!chosen) return;
  try {
    await placeTerms(doc, chosen, isMarkdown);
  } catch (e) {
    void showErrorNotification(e, { context: vscode.l10n.t('Suggest categories and tags') });
  }
}

async function placeTerms(doc: vscode.TextDocument, chosen: Taxonomy, isMarkdown: boolean): Promise<void> {
  // Merged against the text as it is now (the user may have typed while the picker was open).
  const text = doc.getText();
  const eol = docEol(doc);
  const COPY = vscode.l10n.t('Copy');
  if (isMarkdown) {
    const merged = mergeTaxonomy(text, chosen);
    if (merged) {
      if (!merged.edit) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Those terms are already in the front matter.'));
        return;
      }
      if (!(await proposeOffsetEdits(doc, [merged.edit], vscode.l10n.t('categories and tags in the front matter')))) return;
      const n = merged.added.categories.length + merged.added.tags.length;
      vscode.window.setStatusBarMessage(n === 1 ? vscode.l10n.t('Added 1 term to the front matter.') : vscode.l10n.t('Added {0} terms to the front matter.', n), 3000);
      return;
    }
    const ADD = vscode.l10n.t('Add Front Matter');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('This file has no YAML front matter. Add one with the chosen terms?'), ADD, COPY);
    if (choice === ADD) {
      await proposeOffsetEdits(doc, [{ start: 0, end: 0, newText: newFrontMatter(chosen, eol) }], vscode.l10n.t('front matter with categories and tags'));
    } else if (choice === COPY) {
      await vscode.env.clipboard.writeText(taxonomyAsText(chosen, eol));
    }
    return;
  }
  const INSERT = vscode.l10n.t('Insert at Cursor');
  const editor = vscode.window.activeTextEditor?.document === doc ? vscode.window.activeTextEditor : undefined;
  const lines = taxonomyAsText(chosen, eol);
  const choice = await vscode.window.showInformationMessage(lines.replace(/\r?\n/g, ' · '), ...(editor ? [INSERT, COPY] : [COPY]));
  if (choice === COPY) await vscode.env.clipboard.writeText(lines);
  else if (choice === INSERT && editor) {
    // Lines of their own near the cursor, out of any tag or code block, against the text as it is now.
    const sel = editor.selection;
    const where = insertAtSelection(doc.offsetAt(sel.start), doc.offsetAt(sel.end), doc.offsetAt(sel.active));
    const edit = placeBlock(doc.getText(), documentKind(doc.languageId), where, lines, docEol(doc));
    await proposeOffsetEdits(doc, [edit], vscode.l10n.t('categories and tags'));
  }
}
