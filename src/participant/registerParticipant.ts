/**
 * The `@gateway` chat participant in VS Code's own chat view (package.json chatParticipants). At
 * activation only this stub: the handler, the content operations and the MCP client are imported on
 * the first request (src/participant/participantEditor.ts, participantHandler.ts).
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../commands';
import type { Services } from '../services';

export const PARTICIPANT_ID = 'aiGateway.gateway';

export function registerParticipant(services: Services): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, async (request, _context, stream, token) => (await import('./participantEditor')).respond(services, request, stream, token));
  participant.iconPath = vscode.Uri.joinPath(services.context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = { provideFollowups: async (result) => (await import('./participantHandler')).participantFollowups(result) };
  const commands = registerFeatureCommands('participant', async (register) => (await import('./participantEditor')).registerParticipantCommands(services, register));
  return vscode.Disposable.from(participant, commands);
}
