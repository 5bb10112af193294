/**
 * A deprecated or soon-removed gateway model used in VS Code's own chat is flagged once (#43.4), as the
 * catalog flags a deprecated default model (src/platform/catalogNotices.ts): a notification with its
 * dates and the alternative the catalog's description names, and **Switch Model**, which switches VS
 * Code's chat to that alternative (the workbench's `workbench.action.chat.changeModel`, which takes
 * the vendor, id and family of a model the provider lists). Once per model and lifecycle state,
 * remembered in globalState, so the same model is never flagged twice; imported on the first request.
 */
import * as vscode from 'vscode';
import { findAlternative } from '../core/catalog/alternative';
import { modelLifecycle } from '../core/catalog/deprecation';
import { deprecationNotice } from '../core/catalog/details';
import type { CatalogService } from '../platform/catalogService';

export const FLAGGED_STATE_KEY = 'aiGateway.lm.deprecationFlagged';
/** The workbench command that switches the chat's model (its argument: { vendor, id, family }). */
export const CHANGE_MODEL_COMMAND = 'workbench.action.chat.changeModel';

export interface DeprecationFlagDeps {
  readonly catalog: Pick<CatalogService, 'getModel' | 'models'>;
  readonly context: { readonly globalState: vscode.Memento };
}

/**
 * Flags `modelId` when the catalog says it is deprecated or removed and it was not flagged in that
 * state before. Resolves when the user answered (or dismissed); `vendor` is the provider's vendor.
 */
export async function flagDeprecatedModel(services: DeprecationFlagDeps, vendor: string, modelId: string, now = new Date()): Promise<void> {
  const model = services.catalog.getModel(modelId);
  if (!model) return;
  const lifecycle = modelLifecycle(model, now);
  if (lifecycle.state === 'active') return;
  const mark = `${modelId}:${lifecycle.state}`;
  const flagged = services.context.globalState.get<string[]>(FLAGGED_STATE_KEY) ?? [];
  if (flagged.includes(mark)) return;
  await services.context.globalState.update(FLAGGED_STATE_KEY, [...flagged, mark].slice(-100));
  const ids = new Set(services.catalog.models.map((m) => m.id));
  const alternative = findAlternative(model, ids).modelId;
  const SWITCH = vscode.l10n.t('Switch Model');
  const message = vscode.l10n.t("{0}, used in VS Code's chat, is deprecated. {1}", model.display_name || model.id, deprecationNotice(model, lifecycle, ids));
  const choice = await vscode.window.showWarningMessage(message, ...(alternative ? [SWITCH] : []));
  if (choice === SWITCH && alternative) {
    await vscode.commands.executeCommand(CHANGE_MODEL_COMMAND, { vendor, id: alternative, family: alternative });
  }
}
