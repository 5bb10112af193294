/**
 * Read Selection Aloud: the selection without front matter and markup (speechTextFrom), refused
 * before sending when over the limit (named), a model with `speech_generation`, a voice when the
 * schema lists them, the exact cost before sending, then a small player (no autoplay) with Save Audio.
 */
import * as vscode from 'vscode';
import { checkSpeechText, synthesizeSpeech } from '../core/media/mediaClient';
import { speechCost } from '../core/media/mediaCost';
import { speechTextFrom } from '../core/media/mediaText';
import type { SpeechSourceKind } from '../core/media/mediaText';
import type { SpeechOutcome } from '../core/media/mediaClient';
import type { Model } from '../core/gateway/types';
import { settings } from '../platform/config';
import { showErrorNotification } from '../platform/errorNotifications';
import type { MediaHostHandlers } from '../protocol/mediaProtocol';
import { checkSaveTarget, dataUri, extensionForMediaType, writeFileAtomically } from './mediaFiles';
import { MediaPanel } from './mediaPanel';
import { confirmCost, mediaDeps, pickModel, recordSpend, runMediaTask, schemaOptions, showRefusal, workspaceRoots, type MediaContext } from './mediaRunner';

function speechKind(languageId: string): SpeechSourceKind | undefined {
  if (languageId === 'markdown' || languageId === 'mdx') return 'markdown';
  if (languageId === 'html') return 'html';
  if (languageId === 'plaintext') return 'plaintext';
  return undefined;
}

export async function readAloudCommand(ctx: MediaContext): Promise<void> {
  const { services } = ctx;
  const editor = vscode.window.activeTextEditor;
  const kind = editor ? speechKind(editor.document.languageId) : undefined;
  if (!editor || !kind) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Read Selection Aloud works on a selection in a Markdown, HTML or plain text document.'));
    return;
  }
  if (editor.selection.isEmpty) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Select the text to read aloud first.'));
    return;
  }
  const text = speechTextFrom(editor.document.getText(editor.selection), kind);
  let characters: number;
  try {
    characters = checkSpeechText(text);
  } catch (e) {
    return showRefusal(e);
  }
  const model = await pickModel(services, 'speech_generation', settings.defaultSpeechModel, vscode.l10n.t('speech'));
  if (!model) return;
  const options = await schemaOptions(services, model.id);
  let voice: string | undefined;
  if (options.voices && options.voices.length > 0) {
    const ordered = options.defaultVoice ? [options.defaultVoice, ...options.voices.filter((v) => v !== options.defaultVoice)] : options.voices;
    const pick = await vscode.window.showQuickPick(
      ordered.map((v) => ({ label: v, description: v === options.defaultVoice ? vscode.l10n.t('default') : undefined })),
      { title: vscode.l10n.t('Voice ({0})', model.id) },
    );
    if (!pick) return;
    voice = pick.label;
  }
  const cost = speechCost(model.pricing, characters);
  const chars = characters.toLocaleString(vscode.env.language);
  const question =
    characters === 1
      ? voice
        ? vscode.l10n.t('Read 1 character aloud with {0} (voice {1})?', model.id, voice)
        : vscode.l10n.t('Read 1 character aloud with {0}?', model.id)
      : voice
        ? vscode.l10n.t('Read {0} characters aloud with {1} (voice {2})?', chars, model.id, voice)
        : vscode.l10n.t('Read {0} characters aloud with {1}?', chars, model.id);
  if (!(await confirmCost(question, cost))) return;
  if (!(await ctx.services.budget.allowSend(vscode.l10n.t('Media')))) return;
  const out = await runMediaTask(services, vscode.l10n.t('Generating speech with {0}…', model.id), async (signal) => {
    const res = await synthesizeSpeech(await mediaDeps(services, signal), { model: model.id, text, ...(voice ? { voice } : {}) });
    recordSpend(ctx, model, 'speech-generation', cost, res.billedCharacters, res.requestId);
    return res;
  });
  if (!out) return;
  showPlayer(ctx, model, voice, text, out, editor.document.uri);
}

function showPlayer(ctx: MediaContext, model: Model, voice: string | undefined, text: string, speech: SpeechOutcome, near: vscode.Uri): void {
  // The player has Save only: Insert and Discard are the image preview's.
  const actions = (panel: MediaPanel): MediaHostHandlers => ({
    save: async () => {
      const saved = await saveAudio(ctx, speech, near);
      if (saved) panel.status(vscode.l10n.t('Saved to {0}.', vscode.workspace.asRelativePath(saved)));
    },
    insert: () => undefined,
    discard: () => undefined,
  });
  new MediaPanel(
    ctx.services.context.extensionUri,
    'mediaAudio',
    vscode.l10n.t('Read Aloud'),
    { type: 'audio', dataUri: dataUri(speech.mediaType, speech.bytes), model: model.id, ...(voice ? { voice } : {}), characters: speech.characters, text },
    actions,
    ctx.services.log,
  );
}

async function saveAudio(ctx: MediaContext, speech: SpeechOutcome, near: vscode.Uri): Promise<vscode.Uri | undefined> {
  const roots = workspaceRoots(near);
  if (roots.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open a folder first: audio is saved only inside the workspace folders.'));
    return undefined;
  }
  const ext = extensionForMediaType(speech.mediaType);
  const folder = near.scheme === 'file' ? vscode.Uri.joinPath(near, '..') : vscode.Uri.file(roots[0]);
  const stem = near.path.split('/').pop()?.replace(/\.[^.]*$/, '') || 'speech';
  const picked = await vscode.window.showSaveDialog({ title: vscode.l10n.t('Save Audio'), defaultUri: vscode.Uri.joinPath(folder, `${stem}-read-aloud.${ext}`), filters: { [vscode.l10n.t('Audio')]: [ext] } });
  if (!picked) return undefined;
  try {
    if (picked.scheme !== 'file') throw new Error(vscode.l10n.t('Audio is saved only to files on disk inside the workspace.'));
    const real = await checkSaveTarget(picked.fsPath, roots);
    await writeFileAtomically(real, speech.bytes);
    ctx.services.log.info(`Speech saved to ${real}.`);
    return vscode.Uri.file(real);
  } catch (e) {
    void showErrorNotification(e, { context: vscode.l10n.t('The audio was not saved') });
    return undefined;
  }
}
