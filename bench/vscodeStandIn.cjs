// Puts a `vscode` stand-in (bench/vscodeStub.cjs unless told otherwise) where Node looks for the bare name `vscode` from an
// ES module in <dir>: <dir>/node_modules/vscode, an ES module re-exporting each of its names (an ES
// module's names must be known when it is linked). Not through module hooks: hooks run on another
// thread and would add their own cost to every module an entry loads (bench/activation.mjs times it).
const fs = require('node:fs');
const path = require('node:path');

const stub = path.join(__dirname, 'vscodeStub.cjs');

/**
 * `api`: the CommonJS module that stands in for `vscode` (the stub by default; bench/chatOpenHost.ts gives
 * the unit tier's double), and `member`: the export of it that is the API, when it is not the module itself.
 */
function installVscodeStandIn(dir, api = stub, member) {
  const pkg = path.join(dir, 'node_modules', 'vscode');
  fs.mkdirSync(pkg, { recursive: true });
  const loaded = require(api);
  const names = Object.keys(member ? loaded[member] : loaded);
  const access = member ? `[${JSON.stringify(member)}]` : '';
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'vscode', type: 'module', exports: './index.js' }));
  fs.writeFileSync(
    path.join(pkg, 'index.js'),
    [`import { createRequire } from 'node:module';`, `const api = createRequire(import.meta.url)(${JSON.stringify(api)})${access};`, ...names.map((n) => `export const ${n} = api.${n};`), 'export default api;', ''].join('\n'),
  );
  return path.join(pkg, 'index.js');
}

module.exports = { installVscodeStandIn, stub };
