/**
 * The compatibility report (issue 39, item 15): one finding per assumption (held, not held, not
 * checked, no answer), the requests that were sent, and its Markdown form, which is what the editor
 * shows and what "Copy Report" copies. Every text that came from a server or a setting passes
 * `scrubReport` before it is rendered, so a copied report carries no key, token, Basic credential or
 * other secret.
 */
import { capText, redactSecrets } from '../log';
import * as l10n from '../l10n';
import { areaTitle, ASSUMPTIONS, type AssumptionId, type CompatArea } from './assumptions';

export type Verdict = 'held' | 'not_held' | 'not_checked' | 'no_answer';

export interface Finding {
  id: AssumptionId;
  verdict: Verdict;
  /** What was seen (or why nothing was checked), in words. */
  found: string;
  /** The gateway's request id of the answer it was judged on. */
  requestId?: string;
  /** A bounded excerpt of the raw answer, for a bug report (scrubbed when rendered). */
  raw?: string;
}

/** One request the check sent: what a reader needs to see that it only read. */
export interface SentRequest {
  method: 'GET' | 'POST';
  /** Path and, for MCP, the JSON-RPC method; no query values that could be secret. */
  what: string;
  status?: number;
  requestId?: string;
  /** True for the one billed request (sent only on a zero-cost model or after the user approved it). */
  billed?: boolean;
}

export interface CompatReport {
  /** ISO time the check started. */
  startedAt: string;
  gatewayUrl: string;
  hostingUrl?: string;
  /** "ai-gateway-vscode/1.2.3 VSCode/1.104.0". */
  client?: string;
  findings: Finding[];
  requests: SentRequest[];
  /** True when the user cancelled before every probe ran. */
  cancelled?: boolean;
}

/** Longest raw excerpt kept per finding. */
export const MAX_RAW_CHARS = 1_200;

const JSON_SECRET_FIELD = /"([A-Za-z_-]{0,40}(?:token|key|secret|password|passwd|apikey|authorization|credentials?))"(\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

/**
 * Removes secrets from report text: the known ones (the API key, the identity token, the hosting
 * password and its Basic form), anything that looks like a credential (src/core/log.ts redactSecrets:
 * gateway keys, Bearer and Basic values, JWTs, URL userinfo, secret query parameters), and the values
 * of JSON fields named like a secret. Linear in the text: the JSON pattern cannot backtrack (a field
 * value is a run of non-quote characters and escapes).
 */
export function scrubReport(text: string, knownSecrets: readonly string[]): string {
  return redactSecrets(text, knownSecrets).replace(JSON_SECRET_FIELD, '"$1"$2"«redacted»"');
}

/** Cuts a raw answer to MAX_RAW_CHARS (on a character boundary). */
export function excerpt(text: string): string {
  return capText(text, MAX_RAW_CHARS);
}

function verdictWords(v: Verdict): string {
  switch (v) {
    case 'held':
      return l10n.t('Held');
    case 'not_held':
      return l10n.t('Not held');
    case 'not_checked':
      return l10n.t('Not checked');
    case 'no_answer':
      return l10n.t('No usable answer');
  }
}

/** Text for one Markdown line: no line breaks, no table pipes, no backticks that could open code. */
function inline(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/\|/g, '\\|').replace(/`/g, "'");
}

/** A fenced block that no backtick run inside the text can close. */
function fenced(text: string): string {
  let fence = '```';
  while (text.includes(fence)) fence += '`';
  return `${fence}text\n${text}\n${fence}`;
}

export function counts(report: CompatReport): Record<Verdict, number> {
  const c: Record<Verdict, number> = { held: 0, not_held: 0, not_checked: 0, no_answer: 0 };
  for (const f of report.findings) c[f.verdict]++;
  return c;
}

/**
 * The report as Markdown. `knownSecrets` are masked wherever they appear (server text can echo a
 * credential); the result is what the editor shows and what Copy Report puts on the clipboard.
 */
export function renderReport(report: CompatReport, knownSecrets: readonly string[]): string {
  const out: string[] = [];
  const c = counts(report);
  out.push(`# ${l10n.t('AI Gateway compatibility report')}`, '');
  out.push(`- ${l10n.t('Gateway: {0}', report.gatewayUrl)}`);
  if (report.hostingUrl) out.push(`- ${l10n.t('Hosting API: {0}', report.hostingUrl)}`);
  if (report.client) out.push(`- ${l10n.t('Client: {0}', report.client)}`);
  out.push(`- ${l10n.t('Checked: {0}', report.startedAt)}`);
  out.push(`- ${l10n.t('{0} held, {1} not held, {2} not checked, {3} without a usable answer', c.held, c.not_held, c.not_checked, c.no_answer)}`);
  if (report.cancelled) out.push(`- ${l10n.t('Cancelled before every check ran.')}`);
  out.push('', l10n.t('Only reads were sent, except the MCP initialize and tools/list calls and, when shown below, one tiny messages request on a zero-cost model or with your approval. Keys, tokens and passwords are removed from this report.'), '');

  // At a glance: one row per assumption, in the order of the sections below.
  out.push(`| ${l10n.t('Assumption')} | ${l10n.t('Result')} |`, '|---|---|');
  for (const a of ASSUMPTIONS) {
    const f = report.findings.find((x) => x.id === a.id);
    if (f) out.push(`| ${inline(a.expected())} | ${verdictWords(f.verdict)} |`);
  }
  out.push('');

  const areas: CompatArea[] = [];
  for (const a of ASSUMPTIONS) if (!areas.includes(a.area)) areas.push(a.area);
  for (const area of areas) {
    const rows = ASSUMPTIONS.filter((a) => a.area === area).map((a) => ({ a, f: report.findings.find((f) => f.id === a.id) }));
    if (rows.every((r) => r.f === undefined)) continue;
    out.push(`## ${areaTitle(area)}`, '');
    for (const { a, f } of rows) {
      if (!f) continue;
      out.push(`### ${verdictWords(f.verdict)}: ${inline(a.expected())}`, '');
      out.push(`- ${l10n.t('Checked with: {0}', `\`${a.probe}\``)}${f.requestId ? ` (${l10n.t('request id {0}', `\`${inline(f.requestId)}\``)})` : ''}`);
      out.push(`- ${l10n.t('Found: {0}', inline(f.found))}`);
      if (f.verdict === 'not_held' || f.verdict === 'no_answer') out.push(`- ${l10n.t('What the extension does: {0}', inline(a.otherwise()))}`);
      out.push(`- ${l10n.t('Where the assumption lives: {0}', `\`${a.lives}\``)} (${a.basis === 'assumed' ? l10n.t('the API documents do not show this; the extension assumes it') : l10n.t('documented')})`);
      if (f.raw && f.verdict !== 'held') out.push('', l10n.t('The answer (excerpt):'), '', fenced(excerpt(f.raw)));
      out.push('');
    }
  }

  out.push(`## ${l10n.t('Requests sent')}`, '');
  if (report.requests.length === 0) out.push(l10n.t('None.'));
  for (const r of report.requests) {
    const parts = [`\`${r.method} ${inline(r.what)}\``, r.status === undefined ? l10n.t('no answer') : `HTTP ${r.status}`];
    if (r.requestId) parts.push(l10n.t('request id {0}', `\`${inline(r.requestId)}\``));
    if (r.billed) parts.push(l10n.t('billed'));
    out.push(`- ${parts.join(' · ')}`);
  }
  out.push('');
  return scrubReport(out.join('\n'), knownSecrets);
}
