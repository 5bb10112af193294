/**
 * The assumptions "AI Gateway: Check Gateway Compatibility" checks (issue 39, item 15), each named
 * after where it lives: `lives` is the file that holds the assumption (the table "Where each spec
 * assumption lives" in docs/ARCHITECTURE.md, and `grep -rn -i "assumed\|assumption" src/core`), so a
 * report that says "not held" points at the one place to change. test/unit/compat/assumptions.test.ts
 * fails when a named file no longer exists or no longer says what it assumes.
 *
 * `basis`: `documented` when the API documents say it (the extension relies on it as written),
 * `assumed` when the documents say "not shown" and the extension guessed.
 */
import * as l10n from '../l10n';

export type CompatArea = 'catalog' | 'schema' | 'analytics' | 'hosting' | 'mcp' | 'messages';

export type AssumptionId =
  | 'catalog.envelope'
  | 'catalog.pricingStrings'
  | 'catalog.pricingVersion'
  | 'catalog.capabilities'
  | 'schema.jsonSchema'
  | 'analytics.fields'
  | 'hosting.exclusionsRead'
  | 'mcp.initialize'
  | 'mcp.toolsList'
  | 'messages.stream'
  | 'messages.usage';

export interface Assumption {
  id: AssumptionId;
  area: CompatArea;
  basis: 'documented' | 'assumed';
  /** The file that holds the assumption (repository path). */
  lives: string;
  /** The request that checks it. */
  probe: string;
  /** What the extension expects, in words. */
  expected(): string;
  /** What the extension does when the gateway answers otherwise. */
  otherwise(): string;
}

export const ASSUMPTIONS: readonly Assumption[] = [
  {
    id: 'catalog.envelope',
    area: 'catalog',
    basis: 'documented',
    lives: 'src/core/catalog/catalogStore.ts',
    probe: 'GET /v1/models',
    expected: () => l10n.t('The catalog is an object with object "list" and a data array of models, each with a string id.'),
    otherwise: () => l10n.t('The Models view keeps the last catalog it read (or shows none) and says the catalog had no data list; no model is offered from the answer.'),
  },
  {
    id: 'catalog.pricingStrings',
    area: 'catalog',
    basis: 'documented',
    lives: 'src/core/pricing.ts',
    probe: 'GET /v1/models',
    expected: () => l10n.t('Every pricing rate is a decimal string such as "0.15".'),
    otherwise: () => l10n.t('A rate that is not a decimal string is shown as "not a valid rate" and no cost is computed from it: replies of that model are not priced exactly.'),
  },
  {
    id: 'catalog.pricingVersion',
    area: 'catalog',
    basis: 'documented',
    lives: 'src/core/catalog/repricing.ts',
    probe: 'GET /v1/models',
    expected: () => l10n.t('Every pricing object carries pricing_version and unit "credits".'),
    otherwise: () => l10n.t('Repricing cannot be noticed for a model without pricing_version (its version shows as unknown); a rate card not in credits is not priced.'),
  },
  {
    id: 'catalog.capabilities',
    area: 'catalog',
    basis: 'documented',
    lives: 'src/core/gateway/types.ts',
    probe: 'GET /v1/models',
    expected: () => l10n.t('Capabilities use only the documented values (chat, messages, tools, vision, …).'),
    otherwise: () => l10n.t('An unknown capability is kept and shown in the Models view, but no feature offers the model for it.'),
  },
  {
    id: 'schema.jsonSchema',
    area: 'schema',
    basis: 'assumed',
    lives: 'src/core/media/mediaWire.ts',
    probe: 'GET /v1/models/{owner}/{model}/schema',
    expected: () => l10n.t('The schema route answers a JSON Schema whose properties describe the request body.'),
    otherwise: () => l10n.t('Image and speech commands offer no sizes, voices or formats from it (their defaults apply); Show Schema shows the answer as it came.'),
  },
  {
    id: 'analytics.fields',
    area: 'analytics',
    basis: 'assumed',
    lives: 'src/core/usage/analytics.ts',
    probe: 'GET /v1/analytics',
    expected: () => l10n.t('Analytics answers carry totals.credits_nano, totals.requests, window_start, window_end, and buckets with start, credits_nano and requests.'),
    otherwise: () => l10n.t('The usage dashboard and the budget cannot read the missing figures; they are not shown as zeros. The names are in ANALYTICS_WIRE, one place to change.'),
  },
  {
    id: 'hosting.exclusionsRead',
    area: 'hosting',
    basis: 'assumed',
    lives: 'src/core/account/exclusionsRead.ts',
    probe: 'GET /v1/installs/{install_id}/cache_exclusions',
    expected: () => l10n.t('Reading cache exclusions answers {"results": [{type, value}, …]}, complete, without pages.'),
    otherwise: () => l10n.t('Edit Cache Exclusions does not turn an answer it does not recognise into an editable list: it shows the raw answer, and no replacement (PUT) can be sent from it.'),
  },
  {
    id: 'mcp.initialize',
    area: 'mcp',
    basis: 'documented',
    lives: 'src/core/mcp/mcpClient.ts',
    probe: 'POST /v1/mcp initialize',
    expected: () => l10n.t('initialize answers a protocolVersion, a tools capability and the server name and version.'),
    otherwise: () => l10n.t('The Tools view and agent chat show the connection error; no tool is called.'),
  },
  {
    id: 'mcp.toolsList',
    area: 'mcp',
    basis: 'assumed',
    lives: 'src/core/mcp/abilities.ts',
    probe: 'POST /v1/mcp tools/list',
    expected: () => l10n.t('tools/list answers {"tools": [{name, inputSchema}, …]}, with nextCursor when more pages remain.'),
    otherwise: () => l10n.t('The Tools view lists only the tools it could read and says the list could not be read; nothing is called from it.'),
  },
  {
    id: 'messages.stream',
    area: 'messages',
    basis: 'assumed',
    lives: 'src/core/gateway/messagesWire.ts',
    probe: 'POST /v1/messages (stream)',
    expected: () => l10n.t('The messages stream sends message_start, text deltas, message_delta with the stop reason, and ends with message_stop.'),
    otherwise: () => l10n.t('A reply whose stream ends without message_stop is kept as incomplete, never shown as finished; unknown events are skipped.'),
  },
  {
    id: 'messages.usage',
    area: 'messages',
    basis: 'assumed',
    lives: 'src/core/gateway/messagesWire.ts',
    probe: 'POST /v1/messages (stream)',
    expected: () => l10n.t('The stream reports usage: input_tokens in message_start and output_tokens in message_delta.'),
    otherwise: () => l10n.t('A reply without usage is not priced exactly: its cost is an estimate, marked as such.'),
  },
];

export function assumption(id: AssumptionId): Assumption {
  const a = ASSUMPTIONS.find((x) => x.id === id);
  if (!a) throw new Error(`unknown assumption ${id}`);
  return a;
}

/** The area's heading in the report. */
export function areaTitle(area: CompatArea): string {
  switch (area) {
    case 'catalog':
      return l10n.t('Model catalog');
    case 'schema':
      return l10n.t('Model schema route');
    case 'analytics':
      return l10n.t('Usage analytics');
    case 'hosting':
      return l10n.t('Hosting: cache exclusions');
    case 'mcp':
      return l10n.t('Tool server (MCP)');
    case 'messages':
      return l10n.t('Messages route stream');
  }
}
