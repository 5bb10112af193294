/**
 * Images, speech and transcription where people write posts and pages: Generate Image, Read
 * Selection Aloud and Transcribe Audio File (editor and Explorer context menus, palette). The
 * request logic, limits and exact costs are in src/core/content/media*.ts (vscode-free, loaded with
 * the core chunk); this folder is the editor glue and the two webviews' host side.
 *
 * Activation part: the commands are stubs whose handlers (src/media/mediaCommands.ts) are in
 * dist/editor.js, loaded on the first call; only the transcript tracker runs from activation on.
 */
import * as vscode from 'vscode';
import { registerLazyCommands } from '../commands';
import { DisposableStore } from '../core/lifecycle';
import type { Services } from '../services';
import { mediaCommands } from './mediaApi';
import { TranscriptTracker } from './transcriptTracker';

export function registerMedia(services: Services): vscode.Disposable {
  const store = new DisposableStore();
  const tracker = store.add(new TranscriptTracker());
  store.add(
    registerLazyCommands(['aiGateway.media.generateImage', 'aiGateway.media.readAloud', 'aiGateway.media.transcribe', 'aiGateway.media.insertTranscript'], (register) =>
      mediaCommands().registerMediaCommands(services, tracker, register),
    ),
  );
  return new vscode.Disposable(() => store.dispose());
}
