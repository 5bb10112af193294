// Child process of the activation benchmark: imports the activation entry (an ES module) with a minimal
// `vscode` stand-in (bench/vscodeStandIn.cjs) and prints the time the import took (ms): reading,
// linking and evaluating the entry and every chunk it imports statically.
// Usage: node bench/activation.mjs <dir>/extension.mjs
// A CommonJS bundle (an older build, side by side) is required instead, the same way.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const { installVscodeStandIn, stub } = require('./vscodeStandIn.cjs');

const target = path.resolve(process.argv[2]);
let ms;
if (target.endsWith('.mjs')) {
  const standIn = installVscodeStandIn(path.dirname(target));
  await import(pathToFileURL(standIn).href); // the stand-in loads before timing: only the bundle's own cost is measured
  const t0 = process.hrtime.bigint();
  await import(pathToFileURL(target).href);
  ms = Number(process.hrtime.bigint() - t0) / 1e6;
} else {
  const Module = require('node:module');
  const original = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (request === 'vscode') return stub;
    return original.call(this, request, ...rest);
  };
  require(stub);
  const t0 = process.hrtime.bigint();
  require(target);
  ms = Number(process.hrtime.bigint() - t0) / 1e6;
}
process.stdout.write(JSON.stringify({ requireMs: ms }) + '\n');
