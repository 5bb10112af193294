// Puts the `vscode` stand-in (bench/vscodeStub.cjs) where Node looks for the bare name `vscode` from an
// ES module in <dir>: <dir>/node_modules/vscode, an ES module re-exporting each of its names (an ES
// module's names must be known when it is linked). Not through module hooks: hooks run on another
// thread and would add their own cost to every module an entry loads (bench/activation.mjs times it).
const fs = require('node:fs');
const path = require('node:path');

const stub = path.join(__dirname, 'vscodeStub.cjs');

function installVscodeStandIn(dir) {
  const pkg = path.join(dir, 'node_modules', 'vscode');
  fs.mkdirSync(pkg, { recursive: true });
  const names = Object.keys(require(stub));
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'vscode', type: 'module', exports: './index.js' }));
  fs.writeFileSync(
    path.join(pkg, 'index.js'),
    [`import { createRequire } from 'node:module';`, `const api = createRequire(import.meta.url)(${JSON.stringify(stub)});`, ...names.map((n) => `export const ${n} = api.${n};`), 'export default api;', ''].join('\n'),
  );
  return path.join(pkg, 'index.js');
}

module.exports = { installVscodeStandIn, stub };
