/**
 * Modules with module-level state (settings source, the shared network, per-Services usage instances, the
 * chunk cache) that dist/editor.js must share with the activation bundle instead of
 * bundling its own, uninitialised copy. esbuild.mjs (EDITOR_SHARED) replaces each import of these
 * modules in the editor chunk by `require('./extension.js').activationShared[<path>]`;
 * test/unit/bundle/editorChunk.test.ts checks that the two lists agree and that no other module of
 * both bundles keeps state. The per-Services token counter (src/usage/costConfirm.ts) is not listed: only
 * command-time code of dist/editor.js uses it (content commands, chat), so it exists once, there.
 */
import * as config from './config';
import * as lazy from './lazy';
import * as services from './services';
import * as usageServices from './usage/usageServices';

export const activationShared = {
  'src/config.ts': config,
  'src/lazy.ts': lazy,
  'src/services.ts': services,
  'src/usage/usageServices.ts': usageServices,
};
