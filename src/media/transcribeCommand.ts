/**
 * Transcribe Audio File: from the Explorer (an audio file) or the palette (the audio file open in the
 * active tab, else a file picker). The size
 * limit is refused before anything is sent, the exact cost (per_megabyte_audio × size) is confirmed,
 * the upload is streamed from disk with progress and Cancel, and the transcript opens as a new
 * untitled Markdown document, with Insert into the last active document.
 */
import { proposeChange } from '../platform/proposedChange';
import * as vscode from 'vscode';
import { documentKind, insertAtSelection, placeBlock } from '../core/content/insertion';
import { inspectAudioFile, transcribeAudioFile } from '../core/media/mediaClient';
import { transcriptionCost } from '../core/media/mediaCost';
import { formatBytes } from '../core/bytes';
import { settings } from '../platform/config';
import { confirmCost, mediaDeps, pickModel, recordSpend, runMediaTask, showRefusal, type MediaContext } from './mediaRunner';
import type { TranscriptTracker } from './transcriptTracker';

export const AUDIO_EXTENSIONS = ['mp3', 'm4a', 'wav', 'webm', 'ogg', 'flac'];

/** The audio file shown in the active tab (audio preview or any editor), when there is one. */
function activeAudioFile(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const uri = input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputText ? input.uri : undefined;
  const ext = uri?.path.split('/').pop()?.split('.').pop()?.toLowerCase() ?? '';
  return uri && AUDIO_EXTENSIONS.includes(ext) ? uri : undefined;
}

export async function transcribeCommand(ctx: MediaContext, tracker: TranscriptTracker, arg: unknown): Promise<void> {
  const { services } = ctx;
  // The Explorer passes the file; from the palette, the audio file open in the active tab (the
  // editor's audio preview), else a file picker.
  let file = arg instanceof vscode.Uri ? arg : activeAudioFile();
  if (!file) {
    const picked = await vscode.window.showOpenDialog({ title: vscode.l10n.t('Transcribe Audio File'), canSelectMany: false, filters: { [vscode.l10n.t('Audio')]: AUDIO_EXTENSIONS } });
    file = picked?.[0];
    if (!file) return;
  }
  if (file.scheme !== 'file') {
    void vscode.window.showWarningMessage(vscode.l10n.t('Only audio files on disk can be transcribed.'));
    return;
  }
  let info: Awaited<ReturnType<typeof inspectAudioFile>>;
  try {
    info = await inspectAudioFile(file.fsPath);
  } catch (e) {
    return showRefusal(e);
  }
  const model = await pickModel(services, 'transcription', settings.defaultTranscriptionModel, vscode.l10n.t('transcription'));
  if (!model) return;
  const cost = transcriptionCost(model.pricing, info.size);
  if (!(await confirmCost(vscode.l10n.t('Transcribe {0} ({1}) with {2}?', info.name, formatBytes(info.size), model.id), cost))) return;
  if (!(await ctx.services.budget.allowSend(vscode.l10n.t('Media')))) return;
  const path = file.fsPath;
  const out = await runMediaTask(services, vscode.l10n.t('Transcribing {0}…', info.name), async (signal, progress) => {
    let reported = 0;
    const res = await transcribeAudioFile(await mediaDeps(services, signal), {
      model: model.id,
      path,
      expectedSize: info.size,
      onProgress: (sent, total) => {
        const pct = Math.floor((sent / total) * 100);
        if (pct > reported) {
          progress.report({ message: vscode.l10n.t('uploaded {0}', (pct / 100).toLocaleString(vscode.env.language, { style: 'percent' })), increment: pct - reported });
          reported = pct;
        }
      },
    });
    recordSpend(ctx, model, 'transcription', cost, res.billedBytes, res.requestId);
    return res;
  });
  if (!out) return;
  const target = tracker.lastDocument;
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: out.text });
  tracker.add(doc, out.text);
  await vscode.window.showTextDocument(doc, { preview: false });
  if (target) {
    const name = target.path.split('/').pop() ?? vscode.l10n.t('document');
    const INSERT = vscode.l10n.t('Insert into {0}', name);
    void vscode.window.showInformationMessage(vscode.l10n.t('Transcript of {0} ready.', info.name), INSERT).then((c) => (c === INSERT ? insertTranscript(tracker, doc.uri) : undefined));
  }
}

/** Inserts the transcript (the active one, or `from`) near the cursor of the last active document, as one edit. */
export async function insertTranscript(tracker: TranscriptTracker, from?: vscode.Uri): Promise<void> {
  const source = from ?? vscode.window.activeTextEditor?.document.uri;
  const target = tracker.lastDocument;
  if (!source || !tracker.isTranscript(source) || !target) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open a transcript first; it is inserted into the document you were editing before.'));
    return;
  }
  const text = (await vscode.workspace.openTextDocument(source)).getText();
  const doc = await vscode.workspace.openTextDocument(target);
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  // A paragraph of its own near the cursor, out of front matter, code blocks and tags; the selection stays.
  const sel = editor.selection;
  const where = insertAtSelection(doc.offsetAt(sel.start), doc.offsetAt(sel.end), doc.offsetAt(sel.active));
  const edit = placeBlock(doc.getText(), documentKind(doc.languageId), where, text, doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
  // Shown as a diff first; written (one undo) only when accepted (src/platform/proposedChange.ts).
  const text0 = doc.getText();
  await proposeChange(doc, text0.slice(0, edit.start) + edit.newText + text0.slice(edit.end), { title: vscode.l10n.t('transcript') });
}
