// [#40.1] Makes `vscode` resolve to the test double (module.cjs) in the unit tier. Load it after tsx:
//   node --import tsx --import ./test/unit/vscodeDouble/register.mjs --test <file>
// (scripts/test-unit.mjs does). Covers both loaders: tsx runs our .ts tests as CommonJS (package.json
// has no "type": "module"), so Module._resolveFilename is patched; ESM imports go through a resolve hook.
import Module, { register } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const target = fileURLToPath(new URL('./module.cjs', import.meta.url));
const PATCHED = Symbol.for('vscodeDouble.resolvePatched');
if (!Module[PATCHED]) {
  Module[PATCHED] = true;
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return request === 'vscode' ? target : resolveFilename.call(this, request, ...rest);
  };
}
register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function resolve(s, c, next) { return s === 'vscode' ? { url: ${JSON.stringify(pathToFileURL(target).href)}, format: 'commonjs', shortCircuit: true } : next(s, c); }`),
);
