/**
 * Read-only JSON documents for `GET /v1/models/{owner}/{model}/schema` (G-CAT-14), under the
 * `ai-gateway-schema:` scheme. Content-provider documents cannot be edited or saved, which is what
 * "read-only" needs; the `.json` path gives them the JSON language.
 */
import * as vscode from 'vscode';
import type { IGatewayClient } from '../core/gateway/api';
import { withTokenSignal } from '../platform/cancellation';

export const SCHEMA_SCHEME = 'ai-gateway-schema';

/** ai-gateway-schema:/owner/model.json (each id segment percent-encoded by Uri). */
export function schemaUri(modelId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEMA_SCHEME, path: `/${modelId}.json` });
}

export function modelIdFromSchemaUri(uri: vscode.Uri): string {
  return uri.path.replace(/^\//, '').replace(/\.json$/, '');
}

export class SchemaContentProvider implements vscode.TextDocumentContentProvider {
  /** Last fetched text per model id, so reopening a schema needs no request. */
  private readonly texts = new Map<string, string>();

  constructor(private readonly getClient: () => Promise<IGatewayClient>) {}

  /** Fetches the schema; throws the client's GatewayError so the caller can show it with actions. */
  async load(modelId: string, signal?: AbortSignal): Promise<void> {
    const client = await this.getClient();
    const res = await client.getModelSchema(modelId, { signal });
    this.texts.set(modelId, `${JSON.stringify(res.data, null, 2)}\n`);
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const id = modelIdFromSchemaUri(uri);
    if (!this.texts.has(id)) {
      // Reached when VS Code restores an editor of this scheme after a reload.
      try {
        await withTokenSignal(token, (signal) => this.load(id, signal));
      } catch (e) {
        return `// Could not load the schema of ${id}: ${e instanceof Error ? e.message : String(e)}\n`;
      }
    }
    return this.texts.get(id) ?? '';
  }
}
