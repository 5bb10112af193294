/**
 * [#39.8] Every billed conversation call goes through the one route decision (src/core/gateway/chatRoute.ts).
 *
 * The scan walks every TypeScript file under src/ with the compiler's parser (comments do not count) and
 * lists the places that could send a conversation past the decision:
 *  - a call of `createChatCompletion` / `streamChatCompletion` whose options are not an object literal
 *    carrying `route` (the caller's model's route, chatRouteFor);
 *  - a call of the messages route's own methods (`createMessage`, `streamMessages`), a use of
 *    `MESSAGES_PATH`, or a string naming `/v1/chat/completions` or `/v1/messages` (a hand-made POST).
 * The route layer itself (src/core/gateway/) is where the decision is carried out and is not scanned.
 * Anything else must be in ALLOWED below with the reason it cannot bypass the decision, so a new call
 * site either passes the route or is argued for here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const ROUTE_LAYER = 'src/core/gateway/';
const CONVERSATION_CALLS = new Set(['createChatCompletion', 'streamChatCompletion']);
const ROUTE_OWN_CALLS = new Set(['createMessage', 'streamMessages']);
const ROUTE_PATHS = /\/v1\/(?:chat\/completions|messages)(?![\w/-])/;

/**
 * `file: what` -> why it cannot bypass the decision. `what` is the finding's kind and name, as `finding()` writes it.
 */
const ALLOWED: Record<string, string> = {
  // Forwarders: they wrap a client and pass the caller's own options (route included) through unchanged.
  'src/platform/recordingClient.ts: forwards createChatCompletion(options)': 'records the spend of a call made elsewhere; passes its options through',
  'src/participant/participantHandler.ts: forwards createChatCompletion(options)': 'records the spend of a call made elsewhere; passes its options through',
  'src/core/content/finishCheck.ts: forwards createChatCompletion(o)': 'notes how a content reply ended; passes the caller\'s options through',
  'src/core/content/finishCheck.ts: forwards streamChatCompletion(o)': 'notes how a content reply ended; passes the caller\'s options through',
  // Check Gateway Compatibility probes the messages route itself, on a model whose capabilities include
  // `messages` (the route the decision would choose), once, zero-cost or after the user approved it.
  'src/core/compat/assumptions.ts: names /v1/messages': 'the probe\'s label in the report; sends nothing',
  'src/core/compat/messagesProbe.ts: uses MESSAGES_PATH': 'the compatibility probe of the messages route on a messages-capable model, approved or zero-cost',
  // Check API Key's chat probe: a body the gateway refuses (400) once the key's scope is checked; never billed, no conversation.
  'src/core/keys/scopeCheck.ts: names /v1/chat/completions': 'an unbilled scope probe with an invalid body',
};

interface Finding {
  file: string;
  line: number;
  what: string;
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function hasRouteProperty(arg: ts.Expression | undefined): boolean {
  if (!arg || !ts.isObjectLiteralExpression(arg)) return false;
  return arg.properties.some((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name.getText() === 'route');
}

/** The places in one file's text that could send a conversation without the route decision. */
function findBypasses(file: string, text: string): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Finding[] = [];
  const at = (node: ts.Node, what: string): void => {
    found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const options = node.arguments[1];
      if (CONVERSATION_CALLS.has(name) && !hasRouteProperty(options)) {
        at(node, options && ts.isIdentifier(options) ? `forwards ${name}(${options.text})` : `${name} without a route`);
      }
      if (ROUTE_OWN_CALLS.has(name)) at(node, `calls ${name}`);
    }
    if (ts.isIdentifier(node) && node.text === 'MESSAGES_PATH') at(node, 'uses MESSAGES_PATH');
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) && ROUTE_PATHS.test(node.text)) {
      at(node, `names ${ROUTE_PATHS.exec(node.text)?.[0]}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const key = (f: Finding): string => `${f.file}: ${f.what}`;

test('[#39.8] no billed conversation call under src/ bypasses the route decision (chatRouteFor)', () => {
  const findings: Finding[] = [];
  for (const path of tsFiles('src')) {
    const file = relative('.', path).split(sep).join('/');
    if (file.startsWith(ROUTE_LAYER)) continue;
    findings.push(...findBypasses(file, readFileSync(path, 'utf8')));
  }
  const unexplained = findings.filter((f) => !(key(f) in ALLOWED)).map((f) => `${f.file}:${f.line} ${f.what}`);
  assert.deepEqual(unexplained, [], 'pass `route: chatRouteFor(model)` (or argue for the call site in ALLOWED)');
  // The allow-list holds nothing stale: every entry still matches a call site.
  const seen = new Set(findings.map(key));
  assert.deepEqual(Object.keys(ALLOWED).filter((k) => !seen.has(k)), []);
});

test('[#39.8] the scan itself finds each kind of bypass and accepts a routed call', () => {
  const sample = [
    "await client.streamChatCompletion({ model, messages }, { signal });",
    "await client.createChatCompletion(req);",
    "await client.postJson('/v1/chat/completions', body);",
    'await client.postJson(`/v1/messages?x=${1}`, body);',
    'await client.createMessage(req);',
    'await client.postJson(MESSAGES_PATH, body);',
    '// a comment naming /v1/chat/completions does not count',
    "await client.streamChatCompletion(req, { signal, route: chatRouteFor(model) });",
    "await client.createChatCompletion(req, { route });",
    "await client.postJson('/v1/messages/count_tokens', body);",
  ].join('\n');
  assert.deepEqual(
    findBypasses('x.ts', sample).map((f) => `${f.line} ${f.what}`),
    [
      '1 streamChatCompletion without a route',
      '2 createChatCompletion without a route',
      '3 names /v1/chat/completions',
      '4 names /v1/messages',
      '5 calls createMessage',
      '6 uses MESSAGES_PATH',
    ],
  );
});
