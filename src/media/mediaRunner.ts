/**
 * What the three media commands share: the model for a capability (the default-model setting, else
 * the only fit, else a pick), the options its schema route lists, the exact cost shown before
 * sending (Continue / Cancel), the core dependencies (shared client, raw transport, credential-free
 * downloader), a cancellable progress notification, and the spend record of each priced response.
 *
 * Loaded with the media commands (an import() chunk), never at activation.
 */
import * as vscode from 'vscode';
import { confirmRisky } from '../platform/safeDialog';
import { effectiveBaseUrl, type Setting } from '../platform/config';
import type { MediaDeps } from '../core/media/mediaClient';
import type { MediaCost, MediaOperation } from '../core/media/mediaCost';
import type { MediaSchemaOptions } from '../core/media/mediaWire';
import type { Capability, Model } from '../core/gateway/types';
import { showErrorNotification } from '../platform/errorNotifications';
import type { SpendService as SpendRecorder } from '../platform/spendService';
import type { Services } from '../services';
import type { MediaServices } from './registerMedia';
import { billedCost, mediaSpendEntry } from '../core/media/mediaCost';
import { mediaOptionsFromSchema } from '../core/media/mediaWire';
import { createDownloader, createRawGateway } from '../core/media/mediaTransport';
import { withTokenSignal } from '../platform/cancellation';

export interface MediaContext {
  services: MediaServices;
  spend: SpendRecorder;
}

/**
 * The model for `capability`: the setting's model when the catalog lists it for that capability,
 * else the only candidate, else the user's pick. Undefined (with a message shown) when none.
 */
export async function pickModel(services: Pick<Services, 'catalog' | 'log'>, capability: Capability, setting: Setting<string>, what: string): Promise<Model | undefined> {
  await services.catalog.ensureLoaded();
  const candidates = services.catalog.modelsFor(capability);
  if (candidates.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('No model in the catalog offers {0} (capability `{1}`). Refresh the Models view, or check your gateway.', what, capability));
    return undefined;
  }
  const id = setting.get().trim();
  const chosen = id ? candidates.find((m) => m.id === id) : undefined;
  if (chosen) return chosen;
  if (id) services.log.warn(`${setting.key} names ${id}, which the catalog does not list for ${capability}; asking instead.`);
  if (candidates.length === 1) return candidates[0];
  const picked = await vscode.window.showQuickPick(
    candidates.map((m) => ({ label: m.display_name || m.id, description: m.id, model: m })),
    { title: vscode.l10n.t('Model for {0}', what), placeHolder: vscode.l10n.t('Set {0} to skip this question', setting.key) },
  );
  return picked?.model;
}

/** The options the model's schema route lists (sizes, voices, count); {} when it lists none or fails. */
export async function schemaOptions(services: Pick<Services, 'getClient' | 'log'>, modelId: string): Promise<MediaSchemaOptions> {
  try {
    const res = await (await services.getClient()).getModelSchema(modelId);
    return mediaOptionsFromSchema(res.data);
  } catch (e) {
    services.log.info(`No schema for ${modelId} (${e instanceof Error ? e.message : String(e)}); using the gateway's defaults.`);
    return {};
  }
}

/**
 * Shows the exact cost (or why it is unknown) and asks Send / Don't Send, modally (#41.9). True to send.
 * `what` is the request in words ("1 image with acme/pixel").
 */
/** `question`: the whole question, translated ("Transcribe a.mp3 (2 MB) with whisper-1?"). */
export async function confirmCost(question: string, cost: MediaCost): Promise<boolean> {
  const detail = cost.known ? vscode.l10n.t('Cost: {0}.', cost.summary) : vscode.l10n.t('The cost cannot be computed: {0} The gateway bills it all the same.', cost.reason);
  return confirmRisky({ severity: 'info', message: question, detail, safe: vscode.l10n.t("Don't Send"), action: vscode.l10n.t('Send') });
}

/**
 * The media dependencies for one request, aborted by `signal`. The raw transport and the downloader
 * use the shared network layer (proxy, timeouts, user agent, limits, plain-http credential check), so
 * a settings change reaches them at their next request like every other client.
 */
export async function mediaDeps(services: Pick<Services, 'network' | 'getClient' | 'keys' | 'log'>, signal: AbortSignal): Promise<MediaDeps> {
  const net = await services.network();
  return {
    client: await services.getClient(),
    raw: createRawGateway({ baseUrl: () => effectiveBaseUrl().url, getKey: services.keys.getKey, net, logger: services.log }),
    // The gateway's own origin is fetched as the gateway is; any other image address must be https on a public host.
    download: createDownloader({ net, ownOrigins: () => [new URL(effectiveBaseUrl().url).origin] }),
    log: services.log,
    signal,
  };
}

/**
 * Runs `work` under a cancellable progress notification. Undefined when it failed (the error is shown,
 * the 403 naming the scope included) or was cancelled; nothing has been written by then.
 */
export async function runMediaTask<T>(
  services: Pick<Services, 'log'>,
  title: string,
  work: (signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Promise<T>,
): Promise<T | undefined> {
  try {
    return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      return withTokenSignal(token, async (signal) => {
        const out = await work(signal, progress);
        if (signal.aborted) throw new vscode.CancellationError();
        return out;
      });
    });
  } catch (e) {
    services.log.warn(`${title} failed: ${e instanceof Error ? e.message : String(e)}`);
    void showErrorNotification(e, { context: title.replace(/…$/, '') });
    return undefined;
  }
}

/** Shows a refusal detected before sending (MediaError and the like) as a warning; nothing was sent. */
export function showRefusal(e: unknown): void {
  void vscode.window.showWarningMessage(e instanceof Error ? e.message : String(e));
}

/**
 * Records a media response in the local spend ledger: the exact cost shown before sending, or the
 * same rate times what the gateway reports it billed (billedCost). Called as soon as the answer
 * arrived, inside the progress task, so a response the user cancels afterwards is still recorded:
 * the gateway billed it all the same.
 */
export function recordSpend(ctx: MediaContext, model: Model, operation: MediaOperation, shown: MediaCost, billed: number | undefined, requestId: string | undefined): void {
  const cost = billedCost(shown, model.pricing, billed);
  const entry = mediaSpendEntry({ time: new Date(), model: model.id, operation, cost, pricing: model.pricing, keyName: ctx.services.keys.active?.name, requestId });
  ctx.spend.ledger.append(entry).catch((e: unknown) => ctx.services.log.warn(`Spend ledger: could not record a ${operation} response: ${e instanceof Error ? e.message : String(e)}`));
}

/** The workspace folders on disk, the document's own first. */
export function workspaceRoots(doc?: vscode.Uri): string[] {
  const own = doc ? vscode.workspace.getWorkspaceFolder(doc) : undefined;
  const all = vscode.workspace.workspaceFolders ?? [];
  return [...(own ? [own] : []), ...all.filter((f) => f !== own)].filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}
