// Child process of the activation benchmark: requires the activation bundle with a minimal `vscode`
// stand-in and prints the time the require took (ms). Usage: node bench/activation.cjs dist/extension.js
const Module = require('node:module');
const path = require('node:path');
const stub = path.join(__dirname, 'vscodeStub.cjs');
const original = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'vscode') return stub;
  return original.call(this, request, ...rest);
};
require(stub); // load the stand-in before timing: only the bundle's own cost is measured
const target = path.resolve(process.argv[2]);
const t0 = process.hrtime.bigint();
require(target);
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
process.stdout.write(JSON.stringify({ requireMs: ms }) + '\n');
