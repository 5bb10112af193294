// Runs the official MCP conformance suite (@modelcontextprotocol/conformance), on the Node 24 the
// end-to-end tier provisions (the suite needs Node 22+; the project's own tiers run on Node 20):
//
// - its server scenarios against the local gateway's /v1/mcp (the test double). A loopback proxy
//   (test/localGateway/mcpConformanceProxy.ts) adds the API key the suite cannot send.
// - its client scenarios against the product's own MCP client (src/core/mcp/mcpClient.ts, through
//   scripts/conformance-client.ts on the project's Node): the suite starts a test server per scenario
//   and runs the client with its URL.
//
// Every scenario the installed suite lists is accounted for: it either runs and must pass, or it is
// named in NOT_APPLICABLE / NOT_APPLICABLE_CLIENT below with the reason. A listed scenario the suite
// no longer has, or a scenario nobody listed, fails the run - nothing is skipped silently.
//
//   node scripts/test-conformance.mjs                  all scenarios
//   node scripts/test-conformance.mjs ping sse-retry   only the named ones
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as esbuild from 'esbuild';
import { provisionNode24, ROOT } from './provision-editor.mjs';

const SUITE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
/**
 * The pre-release with the stateless revision's client scenarios (#42.3, docs/MCP-ERAS.md), pinned
 * exactly and installed beside 0.1.16 under an npm alias. Every client scenario its list prints for
 * NEXT_SPEC runs at that revision against the product's client; none is skipped.
 */
const SUITE_NEXT = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance-next', 'dist', 'index.js');
const NEXT_SPEC = '2026-07-28';

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

/**
 * Client scenarios the product's client does not take part in. A key ending in '/*' covers every
 * scenario under that prefix (each is still printed by name); it must match at least one.
 */
const MACHINE_GRANT = "an OAuth extension for clients that act without a user (SEP-1046/SEP-990 grants with the client's own credentials or an enterprise IdP's token); the editor signs a person in with the authorization code flow";
const NOT_APPLICABLE_CLIENT = {
  'auth/client-credentials-jwt': MACHINE_GRANT,
  'auth/client-credentials-basic': MACHINE_GRANT,
  'auth/cross-app-access-complete-flow': MACHINE_GRANT,
};

function clientReason(name) {
  if (Object.hasOwn(NOT_APPLICABLE_CLIENT, name)) return NOT_APPLICABLE_CLIENT[name];
  const prefix = Object.keys(NOT_APPLICABLE_CLIENT).find((k) => k.endsWith('/*') && name.startsWith(k.slice(0, -1)));
  return prefix === undefined ? undefined : NOT_APPLICABLE_CLIENT[prefix];
}

/** The product's client as the suite runs it: `<command> <server URL>` (split on spaces, run through a shell). */
const CLIENT_DRIVER = join(ROOT, 'scripts', 'conformance-client.ts');

/**
 * The driver, bundled once per run by esbuild (as the product itself is) into plain JavaScript that the
 * project's Node runs without tsx (#40.7): the suite starts the client once per client scenario (56 on 2026-11-29),
 * and through tsx each start cost 1.20 CPU s on average, bundled 0.72 (the stage: 131 -> 107 CPU s). The same
 * sources (src/core/mcp), the same Node; the packages stay outside the bundle, loaded from node_modules as
 * before. Written under .cache/ (git-ignored, inside the tree so node_modules resolves) and removed after the run.
 */
function bundleClientDriver() {
  const out = join(ROOT, '.cache', 'conformance', `client-${process.pid}.cjs`);
  esbuild.buildSync({ entryPoints: [CLIENT_DRIVER], outfile: out, bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', logLevel: 'warning' });
  return out;
}

function listScenarios(node24, mode, suite = SUITE, extra = []) {
  const r = spawnSync(node24, [suite, 'list', `--${mode}`, ...extra], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`conformance list failed: ${r.stderr || r.stdout}`);
  const names = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*-\s+(\S+)/.exec(line);
    if (m) names.push(m[1]);
  }
  if (names.length === 0) throw new Error(`conformance list printed no ${mode} scenarios:\n${r.stdout}`);
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

/** Runs one server scenario against the gateway. */
function runScenario(node24, url, name, outDir) {
  const r = spawnSync(node24, [SUITE, 'server', '--url', url, '--scenario', name, '-o', outDir], { encoding: 'utf8', timeout: 120_000 });
  return judge(r, readChecks(outDir, `server-${name}-`));
}

/** Runs one client scenario: the suite's test server, and the product's client pointed at it. */
function runClientScenario(node24, driver, name, outDir, suite = SUITE, extra = []) {
  const command = `${process.execPath} ${driver}`;
  // The suite splits the command on spaces and hands it to a shell: the paths must be plain.
  if (/[^\w./+-]/.test(`${process.execPath}${driver}`)) throw new Error(`the client driver's path must not contain spaces or shell characters: ${command}`);
  const r = spawnSync(node24, [suite, 'client', '--command', command, '--scenario', name, ...extra, '-o', outDir], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return judge(r, readChecks(outDir, `${name}-`));
}

/** The installed version of a suite (its package.json beside dist/). */
function suiteVersion(suite) {
  try {
    return JSON.parse(readFileSync(join(suite, '..', '..', 'package.json'), 'utf8')).version;
  } catch {
    return '(version unknown)';
  }
}

function readChecks(outDir, prefix) {
  // A scenario named a/b writes its results under the folder a/ (the suite joins the name as a path).
  const parts = prefix.split('/');
  const base = join(outDir, ...parts.slice(0, -1));
  let dir;
  try {
    dir = readdirSync(base).find((d) => d.startsWith(parts.at(-1)));
  } catch {
    return [];
  }
  try {
    return dir ? JSON.parse(readFileSync(join(base, dir, 'checks.json'), 'utf8')) : [];
  } catch {
    return [];
  }
}

/** Pass = the suite exits 0, at least one check succeeded and none failed. */
function judge(r, checks) {
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
  const args = process.argv.slice(2);
  // --next: only the pre-release's 2026-07-28 client scenarios.
  const nextOnly = args.includes('--next');
  const only = args.filter((a) => a !== '--next');
  const node24 = provisionNode24();
  const scenarios = nextOnly ? [] : listScenarios(node24, 'server');
  const clientScenarios = nextOnly ? [] : listScenarios(node24, 'client');
  const nextClientScenarios = listScenarios(node24, 'client', SUITE_NEXT, ['--spec-version', NEXT_SPEC]);
  const rows = [];
  for (const n of nextOnly ? [] : Object.keys(NOT_APPLICABLE).filter((n) => !scenarios.includes(n))) {
    rows.push({ mode: 'server', name: n, result: 'FAIL', why: 'listed as not applicable, but the installed suite has no such scenario: update NOT_APPLICABLE' });
  }
  for (const k of nextOnly ? [] : Object.keys(NOT_APPLICABLE_CLIENT)) {
    const listed = k.endsWith('/*') ? clientScenarios.some((n) => n.startsWith(k.slice(0, -1))) : clientScenarios.includes(k);
    if (!listed) rows.push({ mode: 'client', name: k, result: 'FAIL', why: 'listed as not applicable, but the installed suite has no such client scenario: update NOT_APPLICABLE_CLIENT' });
  }
  const outDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  const proxy = nextOnly ? { stop: async () => undefined } : await startProxy();
  try {
    for (const name of scenarios) {
      if (only.length > 0 && !only.includes(name)) continue;
      if (NOT_APPLICABLE[name]) {
        rows.push({ mode: 'server', name, result: 'n.a.', why: NOT_APPLICABLE[name] });
        continue;
      }
      const r = runScenario(node24, proxy.url, name, outDir);
      if (!r.ok) process.stderr.write(`\n--- server ${name} output ---\n${r.output}\n`);
      rows.push({ mode: 'server', name, result: r.ok ? 'pass' : 'FAIL', why: r.why });
    }
  } finally {
    await proxy.stop();
  }
  const driver = bundleClientDriver();
  try {
    for (const name of clientScenarios) {
      if (only.length > 0 && !only.includes(name)) continue;
      const na = clientReason(name);
      if (na) {
        rows.push({ mode: 'client', name, result: 'n.a.', why: na });
        continue;
      }
      // Each client scenario gets its own results folder: their names are prefixes of nothing else.
      const r = runClientScenario(node24, driver, name, mkdtempSync(join(outDir, 'client-')));
      if (!r.ok) process.stderr.write(`\n--- client ${name} output ---\n${r.output}\n`);
      rows.push({ mode: 'client', name, result: r.ok ? 'pass' : 'FAIL', why: r.why });
    }
    // The stateless revision, from the pinned pre-release: every scenario it lists for NEXT_SPEC runs
    // (not_scored ones too: a scenario it prints is run and must pass, or fails visibly).
    for (const name of nextClientScenarios) {
      if (only.length > 0 && !only.includes(name)) continue;
      const r = runClientScenario(node24, driver, name, mkdtempSync(join(outDir, 'next-')), SUITE_NEXT, ['--spec-version', NEXT_SPEC]);
      if (!r.ok) process.stderr.write(`\n--- client@${NEXT_SPEC} ${name} output ---\n${r.output}\n`);
      rows.push({ mode: NEXT_SPEC, name, result: r.ok ? 'pass' : 'FAIL', why: r.why });
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
    rmSync(driver, { force: true });
  }
  const width = Math.max(...rows.map((r) => r.name.length), 8);
  const node = spawnSync(node24, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`\nMCP conformance (@modelcontextprotocol/conformance ${suiteVersion(SUITE)}; rows marked ${NEXT_SPEC}: ${suiteVersion(SUITE_NEXT)} at that revision; suites on Node ${node})`);
  console.log(`server: the local gateway's /v1/mcp; client: the product's MCP client (src/core/mcp/mcpClient.ts on Node ${process.versions.node})`);
  console.log(`${'mode'.padEnd(10)}  ${'scenario'.padEnd(width)}  result  detail`);
  for (const r of rows) console.log(`${r.mode.padEnd(10)}  ${r.name.padEnd(width)}  ${r.result.padEnd(6)}  ${r.why}`);
  const next = rows.filter((r) => r.mode === NEXT_SPEC);
  console.log(`\n${NEXT_SPEC} client scenarios (${suiteVersion(SUITE_NEXT)}): ${next.filter((r) => r.result === 'pass').length} of ${next.length} passed.`);
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
