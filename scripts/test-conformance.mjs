// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against the local
// gateway's /v1/mcp, on the Node 24 the end-to-end tier provisions (the suite needs Node 22+; the
// project's own tiers run on Node 20). A loopback proxy (test/localGateway/mcpConformanceProxy.ts) adds
// the API key the suite cannot send.
//
// Every server scenario the installed suite lists is accounted for: it either runs and must pass, or
// it is named in NOT_APPLICABLE below with the reason. A listed scenario the suite no longer has, or
// a scenario nobody listed, fails the run - nothing is skipped silently.
//
//   node scripts/test-conformance.mjs            all scenarios
//   node scripts/test-conformance.mjs ping       only the named ones
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { provisionNode24, ROOT } from './provision-editor.mjs';

const SUITE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

const NO_FIXTURE = (tool) => `calls the suite's fixture tool ${tool}; the gateway's tool set is fixed by the spec and has no such tool`;
const STATELESS = 'needs MCP sessions (Mcp-Session-Id) and resumable SSE streams; the gateway keeps no MCP session state (spec /v1/mcp rule 1)';

/** Scenarios that need what the gateway does not offer (spec: capabilities are tools only). */
const NOT_APPLICABLE = {
  'logging-set-level': 'needs the logging capability; the gateway declares tools only',
  'completion-complete': 'needs the completions capability; the gateway declares tools only',
  'tools-call-simple-text': NO_FIXTURE('test_simple_text'),
  'tools-call-image': NO_FIXTURE('test_image_content'),
  'tools-call-audio': NO_FIXTURE('test_audio_content'),
  'tools-call-embedded-resource': NO_FIXTURE('test_embedded_resource'),
  'tools-call-mixed-content': NO_FIXTURE('test_multiple_content_types'),
  'tools-call-with-logging': NO_FIXTURE('test_tool_with_logging') + ', and needs logging',
  'tools-call-error': NO_FIXTURE('test_error_handling'),
  'tools-call-with-progress': NO_FIXTURE('test_tool_with_progress'),
  'tools-call-sampling': 'needs sampling (server-to-client requests); the gateway has none',
  'tools-call-elicitation': 'needs elicitation (server-to-client requests); the gateway has none',
  'json-schema-2020-12': NO_FIXTURE('json_schema_2020_12_tool'),
  'elicitation-sep1034-defaults': 'needs elicitation; the gateway has none',
  'elicitation-sep1330-enums': 'needs elicitation; the gateway has none',
  'server-sse-polling': STATELESS,
  'server-sse-multiple-streams': STATELESS,
  'resources-list': 'needs resources; the gateway declares tools only',
  'resources-read-text': 'needs resources; the gateway declares tools only',
  'resources-read-binary': 'needs resources; the gateway declares tools only',
  'resources-templates-read': 'needs resources; the gateway declares tools only',
  'resources-subscribe': 'needs resources; the gateway declares tools only',
  'resources-unsubscribe': 'needs resources; the gateway declares tools only',
  'prompts-list': 'needs prompts; the gateway declares tools only',
  'prompts-get-simple': 'needs prompts; the gateway declares tools only',
  'prompts-get-with-args': 'needs prompts; the gateway declares tools only',
  'prompts-get-embedded-resource': 'needs prompts; the gateway declares tools only',
  'prompts-get-with-image': 'needs prompts; the gateway declares tools only',
};

function listServerScenarios(node24) {
  const r = spawnSync(node24, [SUITE, 'list', '--server'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`conformance list failed: ${r.stderr || r.stdout}`);
  const names = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*-\s+(\S+)/.exec(line);
    if (m) names.push(m[1]);
  }
  if (names.length === 0) throw new Error(`conformance list printed no server scenarios:\n${r.stdout}`);
  return names;
}

/** Starts the gateway + key-adding proxy; resolves with its MCP URL and a stop function. */
async function startProxy() {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'localGateway', 'mcpConformanceProxy.ts')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      const m = /^MCP_URL=(\S+)/.exec(line);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the gateway proxy exited (${code}) before printing its URL`)));
    child.once('error', reject);
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, stop };
}

/** Runs one scenario; pass = the suite exits 0, at least one check succeeded and none failed. */
function runScenario(node24, url, name, outDir) {
  const r = spawnSync(node24, [SUITE, 'server', '--url', url, '--scenario', name, '-o', outDir], { encoding: 'utf8', timeout: 120_000 });
  const dir = readdirSync(outDir).find((d) => d.startsWith(`server-${name}-`));
  let checks = [];
  try {
    checks = dir ? JSON.parse(readFileSync(join(outDir, dir, 'checks.json'), 'utf8')) : [];
  } catch {
    checks = [];
  }
  const count = (status) => checks.filter((c) => c.status === status).length;
  const passed = count('SUCCESS');
  const failed = count('FAILURE');
  const warnings = count('WARNING');
  const ok = r.status === 0 && passed > 0 && failed === 0;
  const why = ok
    ? `${passed} checks passed${warnings ? `, ${warnings} warnings` : ''}`
    : r.error
      ? `did not finish: ${r.error.message}`
      : failed > 0
        ? checks
            .filter((c) => c.status === 'FAILURE')
            .map((c) => `${c.id}: ${c.errorMessage ?? c.description}`)
            .join('; ')
        : passed === 0
          ? `no check succeeded (exit ${r.status}, ${warnings} warnings)`
          : `exit ${r.status}`;
  return { ok, why, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

async function main() {
  const only = process.argv.slice(2);
  const node24 = provisionNode24();
  const scenarios = listServerScenarios(node24);
  const stale = Object.keys(NOT_APPLICABLE).filter((n) => !scenarios.includes(n));
  const rows = [];
  for (const n of stale) rows.push({ name: n, result: 'FAIL', why: 'listed as not applicable, but the installed suite has no such scenario: update NOT_APPLICABLE' });
  const outDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  const proxy = await startProxy();
  try {
    for (const name of scenarios) {
      if (only.length > 0 && !only.includes(name)) continue;
      if (NOT_APPLICABLE[name]) {
        rows.push({ name, result: 'n.a.', why: NOT_APPLICABLE[name] });
        continue;
      }
      const r = runScenario(node24, proxy.url, name, outDir);
      if (!r.ok) process.stderr.write(`\n--- ${name} output ---\n${r.output}\n`);
      rows.push({ name, result: r.ok ? 'pass' : 'FAIL', why: r.why });
    }
  } finally {
    await proxy.stop();
    rmSync(outDir, { recursive: true, force: true });
  }
  const width = Math.max(...rows.map((r) => r.name.length), 8);
  console.log(`\nMCP conformance (@modelcontextprotocol/conformance) against the local gateway's /v1/mcp, Node ${spawnSync(node24, ['--version'], { encoding: 'utf8' }).stdout.trim()}`);
  console.log(`${'scenario'.padEnd(width)}  result  detail`);
  for (const r of rows) console.log(`${r.name.padEnd(width)}  ${r.result.padEnd(6)}  ${r.why}`);
  const failed = rows.filter((r) => r.result === 'FAIL').length;
  const passed = rows.filter((r) => r.result === 'pass').length;
  const na = rows.filter((r) => r.result === 'n.a.').length;
  console.log(`\n${passed} passed, ${failed} failed, ${na} not applicable (named above with the reason).`);
  if (passed === 0 && failed === 0) {
    console.error('No applicable scenario ran.');
    process.exit(1);
  }
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
