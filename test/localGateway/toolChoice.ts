/**
 * How the local gateway's tool models choose a tool from what the user asked, so agent mode can be
 * tried in the sandbox without knowing the test markers of toolScript.ts.
 *
 * The rule (docs/CONTRIBUTING.md "Agent mode in the sandbox"):
 *  1. It applies only to a request that offers `tools` (and not `tool_choice: "none"`), whose last user
 *     message carries no `[[tool…]]` marker (markers win: tests keep their exact script) and does not
 *     come after tool results of this turn (then the model answers from the results).
 *  2. The message must ask something: it contains a `?`, or it starts with one of ASKING_VERBS
 *     ("list my sites", "show the collections").
 *  3. The first row of TOOL_RULES whose `asks` pattern matches the message, whose tool is offered, and
 *     whose `args` can be built from the message, is called once with those arguments. A tool counts as
 *     offered under its own name or with a prefix ending in `_`, `.` or `-` (e.g. `mcp_gateway_ping`).
 *  4. No row applies: the ordinary text reply.
 * Add a row to TOOL_RULES to teach the models a new question; order the rows from the most specific.
 */
import type { ParsedTool, ScriptedCall } from './toolScript';

export interface ToolRule {
  /** What the question is about, in words (for docs and test titles). */
  topic: string;
  /** Matches a message about the topic. Linear patterns only (the message is user text). */
  asks: RegExp;
  /** The tool to call, by its gateway name. */
  tool: string;
  /** The call's arguments from the message, or undefined when the message lacks what the tool needs. */
  args: (said: string) => Record<string, unknown> | undefined;
  /** A question this row answers (documentation; the unit test sends it). */
  example: string;
}

const SITE_ID = /\bsite_[a-z0-9_-]{1,60}\b/i;

export const TOOL_RULES: readonly ToolRule[] = [
  {
    topic: 'the abilities of one site (named by its id, e.g. site_blog)',
    asks: /\babilit(?:y|ies)\b/i,
    tool: 'list_site_abilities',
    args: (said) => {
      const site = SITE_ID.exec(said)?.[0];
      return site === undefined ? undefined : { site_id: site };
    },
    example: 'What abilities does site_blog have?',
  },
  { topic: 'sites', asks: /\b(?:web)?sites?\b/i, tool: 'list_account_sites', args: () => ({}), example: 'What sites do I have?' },
  {
    topic: 'knowledge-base collections',
    asks: /\bcollections?\b|\bknowledge[- ]?bases?\b/i,
    tool: 'kb_list_collections',
    args: () => ({}),
    example: 'Which knowledge-base collections are there?',
  },
  { topic: 'whether the tool server answers', asks: /\bping\b/i, tool: 'ping', args: () => ({}), example: 'Can you ping the tool server?' },
];

/** A message starting with one of these asks even without a question mark. */
export const ASKING_VERBS = ['list', 'show', 'find', 'get', 'tell', 'give', 'which', 'what'] as const;

export function asksSomething(said: string): boolean {
  if (said.includes('?')) return true;
  const first = /^\s*([A-Za-z]+)/.exec(said)?.[1]?.toLowerCase();
  return first !== undefined && (ASKING_VERBS as readonly string[]).includes(first);
}

/** The offered name of `tool`: itself, or a prefixed name such as `mcp_gateway_ping`. */
function offeredName(tool: string, tools: readonly ParsedTool[]): string | undefined {
  const exact = tools.find((t) => t.name === tool);
  if (exact !== undefined) return exact.name;
  return tools.find((t) => t.name.length > tool.length && t.name.endsWith(tool) && '_.-'.includes(t.name.charAt(t.name.length - tool.length - 1)))?.name;
}

/**
 * The call the rule makes for the user's message (at most one), or an empty list. The caller has
 * already checked that the request offers tools, carries no markers and does not end with tool results.
 */
export function chooseToolCalls(said: string, tools: readonly ParsedTool[], requestId: string, toolChoice?: string): ScriptedCall[] {
  if (toolChoice === 'none' || tools.length === 0 || !asksSomething(said)) return [];
  for (const rule of TOOL_RULES) {
    if (!rule.asks.test(said)) continue;
    const name = offeredName(rule.tool, tools);
    if (name === undefined) continue;
    const args = rule.args(said);
    if (args === undefined) continue;
    const stem = requestId.replace(/[^A-Za-z0-9]/g, '').slice(-12);
    return [{ id: `call_${stem}_0`, name, arguments: JSON.stringify(args) }];
  }
  return [];
}
