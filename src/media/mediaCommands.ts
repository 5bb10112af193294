/**
 * The media commands' handlers (imported on first use), registered through
 * `registerCommand` (src/platform/commands.ts registerFeatureCommands hands in its registrar on the first call of
 * one of them). The activation part is src/media/registerMedia.ts.
 */
import * as vscode from 'vscode';
import type { CommandRegistrar } from '../platform/commands';
import { DisposableStore } from '../core/disposables';
import type { MediaServices } from './registerMedia';
import { generateImageCommand } from './imageCommand';
import { MediaPanel } from './mediaPanel';
import type { MediaContext } from './mediaRunner';
import { readAloudCommand } from './speechCommand';
import { insertTranscript, transcribeCommand } from './transcribeCommand';
import type { TranscriptTracker } from './transcriptTracker';

export function registerMediaCommands(services: MediaServices, tracker: TranscriptTracker, registerCommand: CommandRegistrar): vscode.Disposable {
  const store = new DisposableStore();
  const ctx: MediaContext = { services, spend: services.spend };
  store.add(registerCommand('aiGateway.media.generateImage', () => generateImageCommand(ctx)));
  store.add(registerCommand('aiGateway.media.readAloud', () => readAloudCommand(ctx)));
  store.add(registerCommand('aiGateway.media.transcribe', (arg?: unknown) => transcribeCommand(ctx, tracker, arg)));
  store.add(registerCommand('aiGateway.media.insertTranscript', () => insertTranscript(tracker)));
  store.add({ dispose: () => MediaPanel.panels.disposeAll() });
  return new vscode.Disposable(() => store.dispose());
}
