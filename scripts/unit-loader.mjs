// How the unit tier runs TypeScript (#40.7): `node --require tsx/cjs --import ./scripts/unit-loader.mjs`
// (scripts/test-unit.mjs) instead of `--import tsx`. The tests run as CommonJS (package.json has no
// "type": "module"), and tsx/cjs compiles every required .ts file. What needs the ESM loader is only a
// dynamic import() of a .ts module (src loads code lazily with import()) or of `vscode`: the small hooks in
// unit-loader-hooks.mjs resolve those and hand .ts files to the CommonJS loader, so tsx/cjs compiles them
// too. tsx's own ESM loader (what `--import tsx` adds: its whole bundle loaded again in the loader-hooks
// thread of every test process) is not started: measured 0.44 -> 0.26 CPU s for a test file's process
// start. The `vscode` double is registered as for a single file (test/unit/vscodeDouble/register.mjs).
import { register } from 'node:module';
import '../test/unit/vscodeDouble/register.mjs';

register(new URL('./unit-loader-hooks.mjs', import.meta.url));
