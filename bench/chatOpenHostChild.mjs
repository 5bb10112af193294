// Child process of bench/chatOpenHost.ts: one cold first open of the chat view, the extension host's part,
// in plain Node. The production build is activated against the unit tier's `vscode` double (argv[2]: the
// double bundled by the driver; argv[4]: the copy of dist/extension.mjs that imports it), with the seeded
// history in the global storage (argv[3]); then the view is resolved as the workbench resolves it for
// "Focus on Chat View", and the page's `ready` is sent the moment its HTML is set. Prints one JSON line: ms
// from the resolve to the HTML set, and from the resolve to the first `state` posted (the chat's chunk
// loaded, its controller made, the history scanned and the state built). The page's own part is measured
// in the editor (bench/chatOpen.ts).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [doubleFile, storage, entry] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const { double, vscode } = require(doubleFile);
const give = (o) => {
  process.stdout.write(`${JSON.stringify(o)}\n`);
  process.exit(0);
};
setTimeout(() => give({ error: 'no state within 20 s' }), 20_000).unref();
await import(pathToFileURL(path.join(path.dirname(entry), 'node_modules/vscode/index.js')).href); // the double loads before anything is timed
const ext = await import(pathToFileURL(entry).href);
await ext.activate(double.extensionContext({ globalStorageUri: vscode.Uri.file(storage) }));
// The editor bench opens the view once the extension has been active a while: let activation's own work end.
await new Promise((r) => setTimeout(r, 300));
const turn = () => new Promise((r) => setImmediate(r));
const t0 = performance.now();
const resolving = double.resolveWebviewView('aiGateway.chat');
let htmlAt;
let view;
for (;;) {
  view = double.webviewViews[0];
  if (view?.webview.html) {
    htmlAt = performance.now();
    break;
  }
  await turn();
}
view.webview.send({ type: 'ready' });
while (!view.webview.posted.some((m) => m && m.type === 'state')) await turn();
const stateAt = performance.now();
await resolving;
give({ htmlMs: htmlAt - t0, stateMs: stateAt - t0 });
