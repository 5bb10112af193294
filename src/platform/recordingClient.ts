/**
 * Records priced replies of a gateway client in the spend ledger without touching the callers: the
 * content commands get a client whose JSON calls record any reply that carries a `usage` object with
 * token counts (the chat-completion fallback does; the dedicated content routes document no usage, so
 * they are not priced locally). Pricing is the catalog's at the time of the reply.
 */
import type { IGatewayClient } from '../core/gateway/api';
import type { Usage } from '../core/gateway/types';
import { readChatUsage } from '../core/gateway/usage';
import type { CatalogService } from './catalogService';
import type { SpendService } from './spendService';

/** What recording needs: the ledger and the catalog's pricing (src/services.ts composes it). */
export interface RecordingDeps {
  readonly spend: Pick<SpendService, 'record'>;
  readonly catalog: Pick<CatalogService, 'getModel'>;
}

/**
 * The reply's usage in the internal form: a postJson answer's is still the chat-completions wire's
 * (read by gateway/usage.ts), createChatCompletion's was read by the client. Usage with unreadable
 * counts is kept: the ledger charges it at a conservative estimate and flags it.
 */
function usageOf(data: unknown, wire: boolean): Usage | undefined {
  const raw = (data as { usage?: unknown } | null)?.usage;
  if (wire) return readChatUsage(raw);
  return raw && typeof raw === 'object' ? (raw as Usage) : undefined;
}

export function recordingClient(client: IGatewayClient, services: RecordingDeps, operation: string): IGatewayClient {
  const record = (body: unknown, data: unknown, requestId: string | undefined, wire: boolean): void => {
    const usage = usageOf(data, wire);
    const model = (data as { model?: unknown } | null)?.model ?? (body as { model?: unknown } | null)?.model;
    if (!usage || typeof model !== 'string') return;
    services.spend.record({ model, operation, usage, pricing: services.catalog.getModel(model)?.pricing, requestId });
  };
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'postJson') {
        return async (path: string, body: unknown, options?: Parameters<IGatewayClient['postJson']>[2]) => {
          const res = await target.postJson<unknown>(path, body, options);
          record(body, res.data, res.requestId, true);
          return res;
        };
      }
      if (prop === 'createChatCompletion') {
        return async (request: Parameters<IGatewayClient['createChatCompletion']>[0], options?: Parameters<IGatewayClient['createChatCompletion']>[1]) => {
          const res = await target.createChatCompletion(request, options);
          record(request, res.data, res.requestId, false);
          return res;
        };
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
