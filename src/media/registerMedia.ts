/**
 * Images, speech and transcription where people write posts and pages: Generate Image, Read
 * Selection Aloud and Transcribe Audio File (editor and Explorer context menus, palette). The
 * request logic, limits and exact costs are in src/core/media/media*.ts (vscode-free, loaded with
 * the media commands); this folder is the editor glue and the two webviews' host side.
 *
 * Activation part: the commands' handlers (src/media/mediaCommands.ts) are imported on the first
 * call; only the transcript tracker runs from activation on.
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import { DisposableStore } from '../core/disposables';
import type { Services } from '../services';
import { TranscriptTracker } from './transcriptTracker';

/** What the media feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type MediaServices = Pick<Services, 'budget' | 'catalog' | 'context' | 'getClient' | 'keys' | 'log' | 'network' | 'spend'>;

export function registerMedia(services: MediaServices): vscode.Disposable {
  const store = new DisposableStore();
  const tracker = store.add(new TranscriptTracker());
  store.add(registerFeatureCommands('media', async (register) => (await import('./mediaCommands')).registerMediaCommands(services, tracker, register)));
  return new vscode.Disposable(() => store.dispose());
}
