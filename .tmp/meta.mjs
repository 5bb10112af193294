import * as esbuild from 'esbuild';
const r = await esbuild.build({ entryPoints: ['src/extension.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', minify: true, external: ['vscode', './core.js', './mcp.js'], mainFields: ['module','main'], write: false, metafile: true, outfile: 'extension.js', logLevel: 'silent', define: { 'process.env.NODE_ENV': '"production"' }, legalComments: 'none' });
const out = r.metafile.outputs['extension.js'];
console.log('total', out.bytes);
const rows = Object.entries(out.inputs).map(([k, v]) => [v.bytesInOutput, k]).sort((a, b) => b[0] - a[0]);
for (const [b, k] of rows.slice(0, Number(process.argv[2] ?? 60))) console.log(String(b).padStart(7), k);
