/**
 * The Tools view's tooltips and the words for a tool's annotations (#42.4), loaded on the first hover
 * (ToolsTreeProvider.resolveTreeItem) or with the commands, never at activation.
 */
import * as vscode from 'vscode';
import { serverInstructions, toolHints, type ToolHints } from '../core/mcp/toolHints';
import type { McpTool } from '../core/mcp/types';
import type { ServerEntry } from '../platform/mcpServers';

/** Longest server instructions in a tooltip (characters). */
export const TOOLTIP_INSTRUCTIONS_CHARS = 1000;

/** The annotations a tool's server gives it, in words: read-only, destructive, idempotent, open world. */
export function hintWords(h: ToolHints): string[] {
  const out: string[] = [];
  if (h.readOnly) out.push(vscode.l10n.t('read-only'));
  if (h.destructive) out.push(vscode.l10n.t('destructive'));
  if (h.idempotent) out.push(vscode.l10n.t('idempotent'));
  if (h.openWorld) out.push(vscode.l10n.t('open world'));
  return out;
}

/** A tool's tooltip: its title (as text), its annotations in words, the "needs a User key" note, its description (as text). */
export function toolTooltip(tool: McpTool, needs: string | undefined, onGateway = false): vscode.MarkdownString {
  const hints = toolHints(tool, onGateway);
  const words = hintWords(hints);
  const md = new vscode.MarkdownString();
  md.appendMarkdown('**');
  md.appendText(hints.title ?? tool.name);
  md.appendMarkdown('**\n\n');
  if (words.length) md.appendMarkdown(`${hints.destructive ? '$(warning) ' : ''}${words.join(' · ')}\n\n`);
  if (needs) md.appendMarkdown(`$(warning) ${needs}\n\n`);
  md.appendText(tool.description ?? '');
  md.supportThemeIcons = true;
  return md;
}

/** A server's tooltip: its name, address and credential, and its instructions from initialize as plain text (never Markdown, a link or a command), bounded. */
export function serverTooltip(server: ServerEntry, credential: string, instructionsRaw: string | undefined): string | vscode.MarkdownString {
  const base = `${server.label}\n${server.url}\n${vscode.l10n.t('Credential: {0}', credential)}`;
  const instructions = serverInstructions(instructionsRaw, TOOLTIP_INSTRUCTIONS_CHARS);
  if (!instructions) return base;
  const md = new vscode.MarkdownString();
  md.appendText(base);
  md.appendMarkdown(`\n\n**${vscode.l10n.t('Server instructions')}**\n\n`);
  md.appendText(instructions);
  return md;
}
