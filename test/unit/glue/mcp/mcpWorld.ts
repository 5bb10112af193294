/**
 * The set-up the tool runner's glue tests share: glueWorld (a local gateway for the file; per test the
 * reset double, an extension context, `Services`) plus, per test, the real `McpService` over those
 * Services and the commands' context. After each test the tool panels and the service are disposed,
 * then the Services (glueWorld's `register` order). Import the double first in the test file.
 *
 *   const world = mcpWorld({ key: false, config: { 'aiGateway.mcp.servers': [...] } });
 *   test('…', async () => { await openTool(world.mcx); world.service.servers(); });
 */
import { double } from '../../vscodeDouble';
import { McpService } from '../../../../src/platform/mcpService';
import { ToolPanel } from '../../../../src/mcp/toolPanel';
import type { McpCommandContext } from '../../../../src/mcp/mcpCommands';
import { glueWorld, type GlueWorld, type GlueWorldOptions } from '../world';

export interface McpWorld extends GlueWorld {
  readonly service: McpService;
  readonly mcx: McpCommandContext;
}

export interface McpWorldOptions extends Omit<GlueWorldOptions, 'register' | 'config'> {
  /** Settings (global scope), set before the service is made; a function is read per test (a server's address known only once it started). */
  config?: Record<string, unknown> | (() => Record<string, unknown>);
}

/** `options` as glueWorld's; `register` is this fixture's own. */
export function mcpWorld(options: McpWorldOptions = {}): McpWorld {
  const { config, ...rest } = options;
  let service: McpService | undefined;
  let mcx: McpCommandContext | undefined;
  const world: GlueWorld = glueWorld({
    ...rest,
    register: (services) => {
      for (const [key, value] of Object.entries(typeof config === 'function' ? config() : (config ?? {}))) double.setConfig(key, value, 'global');
      const made = new McpService(services);
      service = made;
      mcx = { service: made, jwt: services.accountSecrets, extensionUri: world.ctx.extensionUri, log: services.log };
      return {
        dispose: () => {
          ToolPanel.disposeAll();
          made.dispose();
          service = undefined;
          mcx = undefined;
        },
      };
    },
  });
  const live = <T>(name: string, value: T | undefined): T => {
    if (value === undefined) throw new Error(`mcpWorld: ${name} is only there inside a test`);
    return value;
  };
  return {
    get gw() {
      return world.gw;
    },
    get ctx() {
      return world.ctx;
    },
    get services() {
      return world.services;
    },
    get workspace() {
      return world.workspace;
    },
    get service() {
      return live('service', service);
    },
    get mcx() {
      return live('mcx', mcx);
    },
  };
}
