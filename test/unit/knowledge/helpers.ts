/** Shared set-up for the knowledge-base and agents client tests: one local gateway, clients per key. */
import { after, before } from 'node:test';
import { startGateway, type RunningGateway } from '../../localGateway/server';
import { createGatewayClient, type GatewayClient } from '../../../src/core/gateway/gatewayClient';

export function useKbGateway(): { gw: () => RunningGateway; client: (key: string) => GatewayClient } {
  let gateway: RunningGateway | undefined;
  const clients: GatewayClient[] = [];
  before(async () => {
    gateway = await startGateway();
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await gateway?.close();
  });
  const gw = (): RunningGateway => {
    if (gateway === undefined) throw new Error('gateway not started');
    return gateway;
  };
  return {
    gw,
    client: (key) => {
      const c = createGatewayClient({ baseUrl: () => gw().url, getKey: async () => key, userAgent: 'kb-test', env: {}, retry: { maxAttempts: 1 } });
      clients.push(c);
      return c;
    },
  };
}

/** Runs `fn`, which must reject, and returns the error. */
export async function rejection(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}
