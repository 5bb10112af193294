/**
 * The `@gateway` chat participant in VS Code's own chat view (package.json chatParticipants). At
 * activation only this stub: the handler, its followups, the content operations and the MCP client
 * are imported on the first request (src/participant/participantEditor.ts, participantHandler.ts).
 */
import * as vscode from 'vscode';
import { registerFeatureCommands } from '../platform/commands';
import type { Services } from '../services';

/** What the participant feature uses of the services (src/services.ts composes them; only extension.ts passes the whole). */
export type ParticipantServices = Pick<Services, 'accountSecrets' | 'budget' | 'catalog' | 'context' | 'getClient' | 'keys' | 'log' | 'own' | 'spend'>;

export function registerParticipant(services: ParticipantServices): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant('aiGateway.gateway', async (request, _context, stream, token) => {
    const m = await import('./participantEditor');
    // Followups are asked for after an answer, so they are set with the first one.
    participant.followupProvider ??= m.followups;
    return m.respond(services, request, stream, token);
  });
  participant.iconPath = vscode.Uri.joinPath(services.context.extensionUri, 'media', 'icon.png');
  return vscode.Disposable.from(participant, registerFeatureCommands('participant', async (register) => (await import('./participantEditor')).registerParticipantCommands(services, register)));
}
