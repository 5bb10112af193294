import * as vscode from 'vscode';

/** The read-only summary documents (src/content/summaryResult.ts): their scheme, registered at activation. */
export const SUMMARY_SCHEME = 'ai-gateway-summary';
/** What a summary document shows once its summary is gone (after a reload, or never made in this window). */
export const summaryGone = (): string => vscode.l10n.t('This summary is no longer available. Run "Summarise" again.');
