/**
 * Images, speech and transcription where people write posts and pages: Generate Image, Read
 * Selection Aloud and Transcribe Audio File (editor and Explorer context menus, palette). The
 * request logic, limits and exact costs are in src/core/content/media*.ts (vscode-free, loaded with
 * the core chunk); this folder is the editor glue and the two webviews' host side.
 */
import * as vscode from 'vscode';
import { registerCommand } from '../commands';
import { DisposableStore } from '../core/lifecycle';
import type { Services } from '../services';
import { usageServices } from '../usage/usageServices';
import { generateImageCommand } from './imageCommand';
import { MediaPanel } from './mediaPanel';
import type { MediaContext } from './mediaRunner';
import { readAloudCommand } from './speechCommand';
import { insertTranscript, transcribeCommand, TranscriptTracker } from './transcribeCommand';

export function registerMedia(services: Services): vscode.Disposable {
  const store = new DisposableStore();
  const ctx: MediaContext = { services, spend: usageServices(services).spend };
  const tracker = store.add(new TranscriptTracker());
  store.add(registerCommand('aiGateway.media.generateImage', () => generateImageCommand(ctx)));
  store.add(registerCommand('aiGateway.media.readAloud', () => readAloudCommand(ctx)));
  store.add(registerCommand('aiGateway.media.transcribe', (arg?: unknown) => transcribeCommand(ctx, tracker, arg)));
  store.add(registerCommand('aiGateway.media.insertTranscript', () => insertTranscript(tracker)));
  store.add({ dispose: () => MediaPanel.panels.disposeAll() });
  return new vscode.Disposable(() => store.dispose());
}
