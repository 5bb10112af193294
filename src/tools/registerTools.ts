/**
 * The gateway's content tools as language model tools for VS Code's agent mode (#43.1): alt text for
 * the images of a file, a summary, categories and tags, image generation and the day's spend
 * (package.json contributes.languageModelTools declares their names, schemas and descriptions).
 *
 * At activation only this stub: one registration per tool whose prepareInvocation and invoke import
 * src/tools/contentTools.ts on the first call (activation event onLanguageModelTool:<name>).
 */
import * as vscode from 'vscode';
import type { Services } from '../services';

/** The tool names, as package.json contributes.languageModelTools lists them. */
export const CONTENT_TOOL_NAMES = ['aiGateway_altText', 'aiGateway_summarize', 'aiGateway_suggestTaxonomy', 'aiGateway_generateImage', 'aiGateway_spendToday'] as const;
export type ContentToolName = (typeof CONTENT_TOOL_NAMES)[number];

/** What the content tools use (contentTools.ts): never the whole Services. */
export type ToolsServices = Pick<Services, 'budget' | 'catalog' | 'getClient' | 'keys' | 'log' | 'network' | 'own' | 'spend'>;

type Tools = Record<ContentToolName, vscode.LanguageModelTool<Record<string, unknown>>>;

export function registerTools(services: ToolsServices): vscode.Disposable {
  let tools: Promise<Tools> | undefined;
  const load = (): Promise<Tools> => (tools ??= import('./contentTools').then((m) => m.createContentTools(services)));
  return vscode.Disposable.from(
    ...CONTENT_TOOL_NAMES.map((name) =>
      vscode.lm.registerTool<Record<string, unknown>>(name, {
        prepareInvocation: async (options, token) => (await load())[name].prepareInvocation?.(options, token),
        invoke: async (options, token) => (await load())[name].invoke(options, token),
      }),
    ),
  );
}
