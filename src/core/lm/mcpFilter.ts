/**
 * What VS Code's agent reaches through the gateway's MCP server definition (src/lm/mcpProvider.ts):
 * everything the gateway serves EXCEPT the tools in AGENT_HIDDEN_TOOLS, which only run through our
 * language model tool (src/lm/siteAbilityTool.ts: the user's say for every run, and the
 * outcome-unknown ledger). VS Code's MCP client cannot guarantee either (its auto-approve settings can
 * skip confirmation, and an agent may repeat a failed call), so the definition points at a local
 * filtering relay rather than at the gateway itself.
 *
 * - A `tools/list` result (JSON or inside an SSE `data:` event) loses the hidden tools.
 * - A `tools/call` of a hidden tool is answered locally, never forwarded, with a tool error that tells
 *   the agent which tool to use instead. A batch containing one is refused whole (G-MCP-3 style
 *   JSON-RPC -32600), before anything in it is forwarded.
 * Everything else passes unchanged. Linear in the size of the message.
 */
import { SITE_ABILITY_LM_TOOL } from './siteAbilityName';

export const AGENT_HIDDEN_TOOLS: ReadonlySet<string> = new Set(['run_site_ability']);

/** The language model tool to use instead (package.json contributes.languageModelTools). */
export { SITE_ABILITY_LM_TOOL };

export const HIDDEN_TOOL_TEXT =
  `run_site_ability is not available through this MCP server: site abilities write to live sites and must be confirmed by the user each time. ` +
  `Use the ${SITE_ABILITY_LM_TOOL} tool (AI Gateway: Run Site Ability) instead.`;

interface JsonRpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown } | null;
  result?: { tools?: unknown } | null;
}

function isHiddenCall(m: unknown): m is JsonRpcMessage {
  const msg = m as JsonRpcMessage | null;
  return !!msg && msg.method === 'tools/call' && typeof msg.params?.name === 'string' && AGENT_HIDDEN_TOOLS.has(msg.params.name);
}

export type RequestDecision = { kind: 'forward' } | { kind: 'answer'; status: number; body: unknown };

/** Decides on a parsed request body (a message or a batch). */
export function decideRequest(body: unknown): RequestDecision {
  if (Array.isArray(body)) {
    if (body.some(isHiddenCall)) {
      return { kind: 'answer', status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: HIDDEN_TOOL_TEXT } } };
    }
    return { kind: 'forward' };
  }
  if (isHiddenCall(body)) {
    return { kind: 'answer', status: 200, body: { jsonrpc: '2.0', id: body.id ?? null, result: { content: [{ type: 'text', text: HIDDEN_TOOL_TEXT }], isError: true } } };
  }
  return { kind: 'forward' };
}

function filterMessage(m: unknown): unknown {
  const msg = m as JsonRpcMessage | null;
  const tools = msg?.result?.tools;
  if (!msg || !Array.isArray(tools)) return m;
  return { ...msg, result: { ...msg.result, tools: tools.filter((t) => !AGENT_HIDDEN_TOOLS.has((t as { name?: unknown } | null)?.name as string)) } };
}

/** A JSON response body with hidden tools removed from any tools/list result. */
export function filterJsonBody(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  const out = Array.isArray(parsed) ? parsed.map(filterMessage) : filterMessage(parsed);
  return JSON.stringify(out);
}

/**
 * An SSE response body with each event's data filtered like a JSON body. An event's `data:` lines
 * are joined first (SSE semantics), so a tools/list result split over lines is still filtered.
 */
export function filterSseBody(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .split('\n\n')
    .map((event) => {
      const lines = event.split('\n');
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(l.startsWith('data: ') ? 6 : 5));
      if (data.length === 0) return event;
      return [...lines.filter((l) => !l.startsWith('data:')), `data: ${filterJsonBody(data.join('\n'))}`].join('\n');
    })
    .join('\n\n');
}
