/**
 * The catalog's notices (src/platform/catalogService.ts): prices changed, a default model deprecated or gone.
 * Imported with the first notice, so their words are not loaded at activation.
 */
import * as vscode from 'vscode';
import type { CatalogService, CatalogServiceDeps } from './catalogService';
import type { RepricingReport } from '../core/catalog/repricing';
import { PURPOSE_CAPABILITY, type DefaultModelWarning } from '../core/catalog/defaults';
import { purposeWord } from '../core/catalog/purposeWords';

export async function announceRepricing(report: RepricingReport, describeRateChanges: (m: RepricingReport['models'][number]) => string, log: CatalogServiceDeps['log']): Promise<void> {
  const versionList = (v: readonly string[], none: string): string => v.join(', ') || none;
  const versions = `${versionList(report.oldVersions, 'none')} → ${versionList(report.newVersions, 'none')}`;
  const lines = report.models.map(describeRateChanges);
  log.info(`Model catalog repriced (pricing version ${versions}).${lines.map((l) => `\n  ${l}`).join('')}`);
  const none = vscode.l10n.t({ message: 'none', comment: ['no pricing version'] });
  const shownVersions = `${versionList(report.oldVersions, none)} → ${versionList(report.newVersions, none)}`;
  const shown = lines.slice(0, 3).join('; ');
  const body = !lines.length
    ? vscode.l10n.t('No listed rate changed.')
    : lines.length > 3
      ? vscode.l10n.t('Rates changed: {0}; and {1} more.', shown, lines.length - 3)
      : vscode.l10n.t('Rates changed: {0}.', shown);
  const SHOW = vscode.l10n.t('Show All Changes');
  void vscode.window.showInformationMessage(vscode.l10n.t('Model prices changed (pricing version {0}). {1}', shownVersions, body), ...(lines.length > 3 ? [SHOW] : [])).then((choice) => {
    if (choice === SHOW) log.show?.(true);
  });
}

export async function warnAboutDefault(w: DefaultModelWarning, catalog: Pick<CatalogService, 'setDefaultModel' | 'modelsFor'>): Promise<void> {
  const purpose = purposeWord(w.purpose);
  const state =
    w.state === 'missing'
      ? vscode.l10n.t('Your default {0} model {1} is no longer in the model catalog.', purpose, w.modelId)
      : w.state === 'removed'
        ? w.removalDate
          ? vscode.l10n.t('Your default {0} model {1} was removed on {2}: the gateway rejects requests naming it.', purpose, w.modelId, w.removalDate)
          : vscode.l10n.t('Your default {0} model {1} was removed: the gateway rejects requests naming it.', purpose, w.modelId)
        : w.daysUntilRemoval !== undefined
          ? w.daysUntilRemoval === 1
            ? vscode.l10n.t('Your default {0} model {1} is deprecated and will be removed in 1 day ({2}).', purpose, w.modelId, w.removalDate ?? '')
            : vscode.l10n.t('Your default {0} model {1} is deprecated and will be removed in {2} days ({3}).', purpose, w.modelId, w.daysUntilRemoval, w.removalDate ?? '')
          : vscode.l10n.t('Your default {0} model {1} is deprecated.', purpose, w.modelId);
  const alt = w.alternative ? ` ${vscode.l10n.t('The catalog names {0} as its alternative.', w.alternative)}` : w.description ? ` ${w.description}` : '';
  const USE = w.alternative ? vscode.l10n.t('Use {0}', w.alternative) : undefined;
  const CHOOSE = vscode.l10n.t('Choose Another Model...');
  const choice = await vscode.window.showWarningMessage(`${state}${alt}`, ...(USE ? [USE, CHOOSE] : [CHOOSE]));
  if (choice === USE && w.alternative) {
    await catalog.setDefaultModel(w.purpose, w.alternative);
    void vscode.window.showInformationMessage(vscode.l10n.t('Default {0} model set to {1}.', purpose, w.alternative));
  } else if (choice === CHOOSE) {
    const picked = await vscode.window.showQuickPick(
      catalog.modelsFor(PURPOSE_CAPABILITY[w.purpose], { includeDeprecated: false }).map((m) => ({ label: m.display_name, description: m.id, id: m.id })),
      { title: vscode.l10n.t('Default {0} model', purpose), placeHolder: vscode.l10n.t('Choose a model'), matchOnDescription: true },
    );
    if (picked) await catalog.setDefaultModel(w.purpose, picked.id);
  }
}
