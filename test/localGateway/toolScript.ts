/**
 * A deterministic, scripted tool-calling "model" for models with the `tools` capability.
 *
 * Wire form (assumed like the client, OpenAI-compatible; the spec does not show it): request `tools`
 * `[{type:'function', function:{name, description?, parameters?}}]` and `tool_choice`; assistant
 * messages may carry `tool_calls` (content may then be null); results come back as
 * `{role:'tool', tool_call_id, content}`. A request carrying `tools` for a model without `tools` is
 * refused with 400 (see chat.ts).
 *
 * Script, driven by markers in the last user message, but only when the conversation does not already
 * end with tool results:
 *  - `[[tool:NAME {"json":"args"}]]` -> a call of NAME with exactly that arguments text (the JSON part
 *    is optional: `{}`); several markers -> parallel calls, in marker order;
 *  - `[[tool-split]]` -> the arguments are streamed 2 characters per chunk, interleaving the calls
 *    round-robin (exercises assembly across chunks and between parallel calls);
 *  - `[[tool-invalid:NAME]]` -> a call of NAME whose arguments are not valid JSON;
 *  - `[[tool-repeat]]` -> when the first round's results include an `ambiguous_outcome` error, the
 *    model asks for exactly the same calls again (same names, same arguments text) once, as a model
 *    that "tries again" would; the host must refuse them unless the user approves.
 * A NAME not among the request's tools is not called: the reply says so in text instead.
 * When the last message is a tool result, the reply is text built from the results it was sent:
 * "Tool results:" then one line "- <tool name>: <content>" per result, in order.
 */

export interface ParsedTool {
  name: string;
  description?: string;
}

export interface ToolResultMessage {
  toolCallId: string;
  content: string;
}

export interface ScriptedCall {
  id: string;
  name: string;
  arguments: string;
}

const TOOL_MARKER = /\[\[tool:([A-Za-z0-9_.-]{1,64})(?:\s+(\{[^\n\]]*\}))?\]\]/g;
const INVALID_MARKER = /\[\[tool-invalid:([A-Za-z0-9_.-]{1,64})\]\]/g;

export function hasToolMarkers(said: string): boolean {
  return /\[\[tool(?:-invalid)?:/.test(said);
}

/** The calls the script makes for the user's message, or a text reply when a named tool is not offered. */
export function scriptCalls(said: string, tools: readonly ParsedTool[], requestId: string): { calls: ScriptedCall[]; refusal?: string } {
  const offered = new Set(tools.map((t) => t.name));
  const wanted: Array<{ at: number; name: string; args: string }> = [];
  for (const m of said.matchAll(TOOL_MARKER)) wanted.push({ at: m.index ?? 0, name: m[1] ?? '', args: m[2] ?? '{}' });
  for (const m of said.matchAll(INVALID_MARKER)) wanted.push({ at: m.index ?? 0, name: m[1] ?? '', args: '{"unterminated": ' });
  wanted.sort((a, b) => a.at - b.at);
  const missing = wanted.filter((w) => !offered.has(w.name)).map((w) => w.name);
  if (missing.length > 0) return { calls: [], refusal: `I cannot call ${missing.join(', ')}: not among the tools offered (${[...offered].join(', ') || 'none'}).` };
  const stem = requestId.replace(/[^A-Za-z0-9]/g, '').slice(-12);
  return { calls: wanted.map((w, i) => ({ id: `call_${stem}_${i}`, name: w.name, arguments: w.args })) };
}

/** The repeat of `[[tool-repeat]]` (see above); empty when it does not apply. */
export function repeatAfterAmbiguous(
  said: string,
  results: readonly ToolResultMessage[],
  callNames: ReadonlyMap<string, string>,
  callArgs: ReadonlyMap<string, string>,
  toolRoundsSinceUser: number,
  requestId: string,
): ScriptedCall[] {
  if (!said.includes('[[tool-repeat]]') || toolRoundsSinceUser !== 1) return [];
  const stem = requestId.replace(/[^A-Za-z0-9]/g, '').slice(-12);
  return results
    .filter((r) => /^\s*ambiguous_outcome\b/.test(r.content))
    .map((r, i) => ({ id: `call_${stem}_r${i}`, name: callNames.get(r.toolCallId) ?? '', arguments: callArgs.get(r.toolCallId) ?? '{}' }))
    .filter((c) => c.name !== '');
}

/** The text answer to a conversation that ends with tool results. */
export function answerFromResults(results: readonly ToolResultMessage[], callNames: ReadonlyMap<string, string>): string {
  return ['Tool results:', ...results.map((r) => `- ${callNames.get(r.toolCallId) ?? r.toolCallId}: ${r.content}`)].join('\n');
}

/** `delta.tool_calls` fragments for the stream, in order. */
export function toolCallDeltas(calls: readonly ScriptedCall[], split: boolean): unknown[][] {
  const out: unknown[][] = [];
  if (!split) {
    calls.forEach((c, index) => {
      out.push([{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }]);
      out.push([{ index, function: { arguments: c.arguments } }]);
    });
    return out;
  }
  calls.forEach((c, index) => out.push([{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }]));
  const pieces = calls.map((c) => Array.from(c.arguments).reduce<string[]>((acc, ch, i) => (i % 2 === 0 ? acc.push(ch) : (acc[acc.length - 1] += ch), acc), []));
  for (let round = 0; pieces.some((p) => round < p.length); round++) {
    pieces.forEach((p, index) => {
      const piece = p[round];
      if (piece !== undefined) out.push([{ index, function: { arguments: piece } }]);
    });
  }
  return out;
}
