// The esbuild plugin of dist/editor.js (the command-time editor glue, src/editorChunk.ts).
//
// Modules of the activation bundle that keep module-level state (the settings source, the shared
// network, per-Services usage instances, the chunk cache) must exist once: dist/editor.js takes them
// from dist/extension.js (its `activationShared` export, src/activationShared.ts) instead of
// bundling a second, uninitialised copy. test/unit/bundle/editorChunk.test.ts keeps this list
// complete and equal to src/activationShared.ts.
import path from 'node:path';

export const EDITOR_SHARED = ['src/config.ts', 'src/lazy.ts', 'src/services.ts', 'src/usage/usageServices.ts'];

/** @type {import('esbuild').Plugin} */
export const shareWithActivation = {
  name: 'share-with-activation',
  setup(build) {
    const targets = new Map(EDITOR_SHARED.map((m) => [path.resolve(m), m]));
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.namespace !== 'file' || !args.resolveDir) return undefined;
      const abs = path.resolve(args.resolveDir, args.path);
      const shared = targets.get(abs) ?? targets.get(`${abs}.ts`);
      return shared ? { path: shared, namespace: 'activation-shared' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'activation-shared' }, (args) => ({
      contents: `module.exports = require('./extension.js').activationShared[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
};
