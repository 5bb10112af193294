/**
 * The tools an agent conversation offers the model: the gateway's /v1/mcp tools (all pages) for the
 * active credential, plus the tools of each other configured MCP server the user turned on for
 * agent chat. vscode-free.
 *
 * - Account key: the ability tools (list_site_abilities, search_abilities, run_site_ability) are left
 *   out, and the reason is returned for the chat to show (G-MCP-10: they need a User key).
 * - Names must be unique for the model and fit the wire's name rule (1-64 of A-Z a-z 0-9 _ . -): a
 *   custom server's tool whose name collides with an earlier one, or does not fit, is offered as
 *   `<server>__<tool>` cut to fit; one that still collides is left out.
 * - The gateway's knowledge-base tools (kb_search, and the listing and reading ones beside it) are
 *   offered only when the user turned knowledge-base search on for the conversation: the model then
 *   reads the user's own documents, which is a choice, not a default.
 * - A gateway knowledge-base tool call made for an agent session carries the session header
 *   (G-MCP-16; the gateway only groups activity with it); no other call does.
 */
import { ABILITY_TOOLS, NEEDS_USER_KEY_EXPLANATION } from '../mcp/abilities';
import type { CredentialKind, McpTool } from '../mcp/types';
import type { AgentTool, AgentToolbox } from './agentLoop';
import { mcpSessionHeaders } from '../knowledge/agentsClient';

/**
 * Assumed: the gateway's knowledge-base tools are the /v1/mcp tools whose names start with `kb_` (the
 * spec lists kb_search; any later kb_ tool is treated the same). Change here only.
 */
export function isKnowledgeBaseTool(tool: Pick<AgentTool, 'isGateway' | 'serverToolName'>): boolean {
  return tool.isGateway && tool.serverToolName.startsWith('kb_');
}

/** Extra headers of one tool call: the session header for a gateway kb tool called for a session, else none. */
export function toolCallHeaders(tool: Pick<AgentTool, 'isGateway' | 'serverToolName'>, sessionId: string | undefined): Record<string, string> {
  return isKnowledgeBaseTool(tool) ? mcpSessionHeaders(sessionId) : {};
}

export interface ToolboxOptions {
  /** The conversation turned on knowledge-base search (the gateway's knowledge-base tools). */
  kbSearch?: boolean;
}

export interface ToolSource {
  serverId: string;
  serverLabel: string;
  isGateway: boolean;
  tools: readonly McpTool[];
}

const NAME_OK = /^[A-Za-z0-9_.-]{1,64}$/;
/** Most tools offered to a model at once (providers refuse long lists; the gateway's come first). */
export const MAX_AGENT_TOOLS = 128;

export const ACCOUNT_KEY_EXCLUSION =
  `Site-ability tools are off: the active key is an Account key. ${NEEDS_USER_KEY_EXPLANATION}`;

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 64) || 'tool';
}

export function buildToolbox(sources: readonly ToolSource[], credential: CredentialKind, options: ToolboxOptions = {}): AgentToolbox {
  const tools: AgentTool[] = [];
  const taken = new Set<string>();
  const excluded: string[] = [];
  for (const src of sources) {
    for (const t of src.tools) {
      if (typeof t?.name !== 'string') continue;
      if (options.kbSearch !== true && isKnowledgeBaseTool({ isGateway: src.isGateway, serverToolName: t.name })) continue;
      if (src.isGateway && credential === 'account' && ABILITY_TOOLS.has(t.name)) {
        excluded.push(t.name);
        continue;
      }
      let name = t.name;
      if (!NAME_OK.test(name) || taken.has(name)) {
        if (src.isGateway && NAME_OK.test(name)) continue; // the gateway repeated a name: the first one stands
        name = safeName(`${safeName(src.serverLabel).slice(0, 20)}__${t.name}`);
        if (taken.has(name)) continue;
      }
      if (tools.length >= MAX_AGENT_TOOLS) break;
      taken.add(name);
      tools.push({
        name,
        serverToolName: t.name,
        ...(t.description ? { description: t.description.slice(0, 4000) } : {}),
        ...(t.inputSchema && typeof t.inputSchema === 'object' ? { inputSchema: t.inputSchema } : {}),
        readOnly: t.annotations?.readOnlyHint === true,
        serverId: src.serverId,
        serverLabel: src.serverLabel,
        isGateway: src.isGateway,
      });
    }
  }
  return { tools, credential, ...(excluded.length ? { excluded: { names: excluded, reason: ACCOUNT_KEY_EXCLUSION } } : {}) };
}
