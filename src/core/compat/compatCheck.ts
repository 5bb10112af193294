/**
 * Runs the compatibility check (issue 39, item 15): every probe in turn, with progress and the
 * user's Cancel, into one report. vscode-free: the editor glue (src/compat/) supplies the settings,
 * the credentials, the network's fetch and the question before a billed request.
 *
 * What is sent (and nothing else): GET /v1/models, GET the schema of one model, GET /v1/analytics
 * (with an identity token), GET the cache exclusions of one install (with hosting credentials),
 * POST /v1/mcp `initialize` and `tools/list` (with an API key), and at most one POST /v1/messages:
 * on a zero-cost model, or after `approve` resolved true.
 */
import type { HostingCredentials } from '../account/hostingClient';
import * as l10n from '../l10n';
import { probeMessagesStream, type BilledOffer, type BilledRequest } from './messagesProbe';
import { notChecked, probeAnalytics, probeCatalog, probeExclusionsRead, probeMcp, probeSchema, schemaModel } from './probes';
import type { ProbeFetch, ProbeHttp } from './probeHttp';
import type { CompatReport, Finding } from './report';
import { ASSUMPTIONS } from './assumptions';

export interface CompatCheckDeps {
  gatewayUrl: string;
  fetch: ProbeFetch;
  userAgent: string;
  /** The extension's version, sent as MCP clientInfo.version. */
  clientVersion: string;
  getKey(): Promise<string | undefined>;
  getJwt(): Promise<string | undefined>;
  analyticsProjectId: string;
  hostingUrl?: string;
  getHostingCredentials(): Promise<HostingCredentials | undefined>;
  /** The install whose exclusions are read (the one used last); none: not checked. */
  installId?: string;
  /** Asked before the one billed request; true only on the user's explicit approval. */
  approve(offer: BilledOffer): Promise<boolean>;
  /** Told each step's name before it runs (progress). */
  onStep?(step: string, index: number, total: number): void;
  now?(): number;
}

export interface CompatCheckResult {
  report: CompatReport;
  /** The billed request, when one was sent on a priced model (for the spend ledger). */
  billed?: BilledRequest;
  /** The secrets known to the check, for scrubbing the rendered report. Never shown. */
  secrets: string[];
}

/**
 * Runs every probe. Cancelling (`signal`) stops before the next request; what was found so far is
 * kept, and the remaining assumptions are reported as not checked.
 */
export async function runCompatCheck(deps: CompatCheckDeps, signal: AbortSignal): Promise<CompatCheckResult> {
  const now = deps.now ?? Date.now;
  const [key, jwt, credentials] = await Promise.all([deps.getKey(), deps.getJwt(), deps.getHostingCredentials()]);
  const secrets = [key, jwt, credentials?.password, credentials ? Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64') : undefined].filter((s): s is string => typeof s === 'string' && s.length >= 4);
  const report: CompatReport = {
    startedAt: new Date(now()).toISOString(),
    gatewayUrl: deps.gatewayUrl,
    ...(deps.hostingUrl ? { hostingUrl: deps.hostingUrl } : {}),
    client: deps.userAgent,
    findings: [],
    requests: [],
  };
  const http: ProbeHttp = { fetch: deps.fetch, userAgent: deps.userAgent, signal, sent: report.requests };
  let models: unknown[] = [];
  let billed: BilledRequest | undefined;
  const steps: Array<[string, () => Promise<Finding[]>]> = [
    [
      l10n.t('Reading the model catalog…'),
      async () => {
        const r = await probeCatalog(http, deps.gatewayUrl);
        models = r.models;
        return r.findings;
      },
    ],
    [l10n.t('Reading a model schema…'), async () => [await probeSchema(http, deps.gatewayUrl, schemaModel(models))]],
    [l10n.t('Reading usage analytics…'), async () => [await probeAnalytics(http, deps.gatewayUrl, jwt, deps.analyticsProjectId, now())]],
    [l10n.t('Reading cache exclusions…'), async () => [await probeExclusionsRead(http, deps.hostingUrl, credentials, deps.installId)]],
    [l10n.t('Asking the tool server…'), () => probeMcp(http, deps.gatewayUrl, key, deps.clientVersion)],
    [
      l10n.t('Checking the messages stream…'),
      async () => {
        const r = await probeMessagesStream(http, deps.gatewayUrl, { key, models, nowMs: now(), approve: deps.approve });
        billed = r.billed;
        return r.findings;
      },
    ],
  ];
  for (const [i, [name, run]] of steps.entries()) {
    if (signal.aborted) break;
    deps.onStep?.(name, i, steps.length);
    if (signal.aborted) break;
    try {
      report.findings.push(...(await run()));
    } catch (e) {
      if (!signal.aborted) throw e;
    }
  }
  if (signal.aborted) {
    report.cancelled = true;
    for (const a of ASSUMPTIONS) if (!report.findings.some((f) => f.id === a.id)) report.findings.push(notChecked(a.id, l10n.t('cancelled')));
  }
  return { report, ...(billed ? { billed } : {}), secrets };
}
