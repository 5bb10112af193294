/**
 * The feature manifest (#40.11): the one list of features, in activation order. Each entry is a
 * feature folder (src/<name>/), the command groups it owns (`aiGateway.<group>.<command>`; '' is the
 * ids without a group, `aiGateway.addApiKey`; left out, the one group of the feature's own name) and
 * its registrar. Read by src/extension.ts (activation),
 * by scripts/gen-command-ids.mjs (which feature registers which command: src/commandIds.ts) and by
 * test/unit/featureCommands.test.ts; the script and the test read this file's text with the TypeScript
 * parser, so `name` and `groups` stay plain string literals.
 *
 * A registrar is cheap: it registers views, a status item and its commands as stubs
 * (registerFeatureCommands in src/platform/commands.ts) whose bodies are loaded with import() on the
 * first call, so what activation loads stays measured by test/unit/bundle/esmBundle.test.ts.
 */
import type * as vscode from 'vscode';
import { registerAccount } from './account/registerAccount';
import { registerCatalog } from './catalog/registerCatalog';
import { registerChat } from './chat/registerChat';
import { registerCompare } from './compare/registerCompare';
import { registerCompat } from './compat/registerCompat';
import { registerContent } from './content/registerContent';
import { registerKeys } from './keys/registerKeys';
import { registerKnowledge } from './knowledge/registerKnowledge';
import { registerLm } from './lm/registerLm';
import { registerMcp } from './mcp/registerMcp';
import { registerMedia } from './media/registerMedia';
import { registerModelIds } from './modelIds/registerModelIds';
import { registerParticipant } from './participant/registerParticipant';
import type { Services } from './services';
import { registerTools } from './tools/registerTools';
import { registerUsage } from './usage/registerUsage';
import { registerWelcome } from './welcome/registerWelcome';

export interface FeatureEntry {
  /** The feature folder, src/<name>/. */
  readonly name: string;
  /**
   * The command groups the feature registers (package.json `aiGateway.<group>.*`; '' for
   * `aiGateway.<command>`). Left out: `[name]`. (Only here for the generator: activation never reads it.)
   */
  readonly groups?: readonly string[];
  /** Registers the feature at activation; the returned disposable goes to the root store. */
  readonly register: (services: Services) => vscode.Disposable;
}

export const FEATURES: readonly FeatureEntry[] = [
  { name: 'keys', groups: [''], register: registerKeys },
  { name: 'catalog', register: registerCatalog },
  { name: 'chat', register: registerChat },
  { name: 'content', register: registerContent },
  { name: 'mcp', register: registerMcp },
  { name: 'account', groups: ['hosting'], register: registerAccount },
  { name: 'lm', groups: [], register: registerLm },
  { name: 'usage', register: registerUsage },
  { name: 'media', register: registerMedia },
  { name: 'knowledge', groups: ['knowledge', 'agents'], register: registerKnowledge },
  { name: 'welcome', register: registerWelcome },
  { name: 'modelIds', register: registerModelIds },
  { name: 'compare', register: registerCompare },
  { name: 'participant', register: registerParticipant },
  { name: 'compat', register: registerCompat },
  { name: 'tools', groups: [], register: registerTools },
];
