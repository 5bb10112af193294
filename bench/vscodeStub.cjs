// A minimal `vscode` stand-in for timing `require` of the activation bundle outside the editor.
// Its top-level names are read from @types/vscode (esbuild's ESM interop copies own properties), and
// each is an inert deep proxy: callable, constructible, and every property is another proxy.
const fs = require('node:fs');
const handler = {
  get(_t, prop) {
    if (prop === Symbol.toPrimitive) return () => '';
    if (prop === 'then') return undefined;
    return deep;
  },
  apply() {
    return deep;
  },
  construct() {
    return deep;
  },
};
const deep = new Proxy(function () {}, handler);
const dts = fs.readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
const names = new Set();
for (const m of dts.matchAll(/^\s{0,4}export (?:namespace|class|enum|const|function|let|interface) (\w+)/gm)) names.add(m[1]);
const api = {};
for (const n of names) api[n] = deep;
module.exports = api;
