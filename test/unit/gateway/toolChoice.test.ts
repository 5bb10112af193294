/**
 * Issue 41 item 8: the local gateway's tool models choose a tool from the user's question (the rule
 * table of test/localGateway/toolChoice.ts), so agent mode in the sandbox works without test markers.
 * The rule on its own, then through both conversation routes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { asksSomething, chooseToolCalls, TOOL_RULES } from '../../localGateway/toolChoice';
import { chat, postJson, useGateway, userSays } from './helpers';

const GATEWAY_TOOLS = ['ping', 'list_account_sites', 'list_site_abilities', 'search_abilities', 'run_site_ability', 'kb_list_collections', 'kb_search', 'kb_get_document'].map((name) => ({ name }));

function chosen(said: string, tools = GATEWAY_TOOLS, choice?: string): Array<[string, unknown]> {
  return chooseToolCalls(said, tools, 'req-1', choice).map((c) => [c.name, JSON.parse(c.arguments) as unknown]);
}

describe('[#41.8] the tool-choice rule', () => {
  test('[#41.8] a question about sites, abilities of a site, collections or ping calls the matching tool', () => {
    assert.deepEqual(chosen('what sites do I have?'), [['list_account_sites', {}]]);
    assert.deepEqual(chosen('Which websites are on my account?'), [['list_account_sites', {}]]);
    assert.deepEqual(chosen('List my sites'), [['list_account_sites', {}]]);
    assert.deepEqual(chosen('What abilities does site_blog have?'), [['list_site_abilities', { site_id: 'site_blog' }]]);
    assert.deepEqual(chosen('What collections are in the knowledge base?'), [['kb_list_collections', {}]]);
    assert.deepEqual(chosen('show my knowledge bases'), [['kb_list_collections', {}]]);
    assert.deepEqual(chosen('Can you ping the tool server?'), [['ping', {}]]);
  });

  test('[#41.8] abilities without a site id fall to the next row: the sites come first', () => {
    assert.deepEqual(chosen('what abilities do my sites have?'), [['list_account_sites', {}]]);
    assert.deepEqual(chosen('what abilities are there?'), []);
  });

  test('[#41.8] no question, no matching row, a tool not offered or tool_choice none: no call', () => {
    assert.deepEqual(chosen('My sites are slow today.'), [], 'a statement is not a question');
    assert.deepEqual(chosen('What is the weather like?'), []);
    assert.deepEqual(chosen('what sites do I have?', [{ name: 'kb_search' }]), []);
    assert.deepEqual(chosen('what sites do I have?', []), []);
    assert.deepEqual(chosen('what sites do I have?', GATEWAY_TOOLS, 'none'), []);
    assert.equal(asksSomething('Tell me about sites'), true);
    assert.equal(asksSomething('sites, sites'), false);
  });

  test('[#41.8] a prefixed tool name (as an editor names MCP tools) is the offered name that is called', () => {
    assert.deepEqual(chosen('what sites do I have?', [{ name: 'mcp_gateway_list_account_sites' }]), [['mcp_gateway_list_account_sites', {}]]);
    assert.deepEqual(chosen('what sites do I have?', [{ name: 'mylist_account_sites' }]), [], 'only after a separator');
  });

  test('[#41.8] each row of the table answers its own example question with its tool, every tool offered', () => {
    const everyTool = TOOL_RULES.map((r) => ({ name: r.tool }));
    for (const rule of TOOL_RULES) assert.equal(chosen(rule.example, everyTool)[0]?.[0], rule.tool, `${rule.topic}: ${rule.example}`);
    assert.ok(TOOL_RULES.length >= 4);
  });
});

describe('[#41.8] the rule through the conversation routes', () => {
  const gw = useGateway();
  const tools = GATEWAY_TOOLS.map((t) => ({ type: 'function', function: { name: t.name, parameters: { type: 'object', properties: {} } } }));

  test('[#41.8] chat completions: "what sites do I have?" answers with a list_account_sites call, then from its result', async () => {
    const first = (await (await chat(gw(), userSays('what sites do I have?', 'openai/gpt-4.1', { tools }))).json()) as {
      choices: Array<{ finish_reason: string; message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> } }>;
    };
    const choice = first.choices[0];
    assert.equal(choice?.finish_reason, 'tool_calls');
    assert.deepEqual(choice?.message.tool_calls?.map((c) => [c.function.name, c.function.arguments]), [['list_account_sites', '{}']]);
    const call = choice?.message.tool_calls?.[0];
    assert.ok(call);
    const second = (await (
      await chat(gw(), {
        model: 'openai/gpt-4.1',
        tools,
        messages: [
          { role: 'user', content: 'what sites do I have?' },
          { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: call.function }] },
          { role: 'tool', tool_call_id: call.id, content: 'site_blog: Team Blog' },
        ],
      })
    ).json()) as { choices: Array<{ finish_reason: string; message: { content: string } }> };
    assert.equal(second.choices[0]?.finish_reason, 'stop');
    assert.equal(second.choices[0]?.message.content, 'Tool results:\n- list_account_sites: site_blog: Team Blog');
  });

  test('[#41.8] markers still win, and the same question without tools is a text reply', async () => {
    const marked = (await (await chat(gw(), userSays('what sites do I have? [[tool:ping]]', 'openai/gpt-4.1', { tools }))).json()) as { choices: Array<{ message: { tool_calls?: Array<{ function: { name: string } }> } }> };
    assert.deepEqual(marked.choices[0]?.message.tool_calls?.map((c) => c.function.name), ['ping']);
    const plain = (await (await chat(gw(), userSays('what sites do I have?', 'openai/gpt-4.1'))).json()) as { choices: Array<{ finish_reason: string; message: { content: string } }> };
    assert.equal(plain.choices[0]?.finish_reason, 'stop');
    assert.match(plain.choices[0]?.message.content ?? '', /what sites do I have\?/);
  });

  test('[#41.8] the messages route follows the same rule (tool_use list_account_sites)', async () => {
    const res = await postJson(gw(), '/v1/messages', {
      model: 'anthropic/claude-sonnet-4',
      max_tokens: 256,
      tools: GATEWAY_TOOLS.map((t) => ({ name: t.name, input_schema: { type: 'object', properties: {} } })),
      messages: [{ role: 'user', content: 'what sites do I have?' }],
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { stop_reason: string; content: Array<{ type: string; name?: string; input?: unknown }> };
    assert.equal(body.stop_reason, 'tool_use');
    assert.deepEqual(body.content.filter((b) => b.type === 'tool_use').map((b) => [b.name, b.input]), [['list_account_sites', {}]]);
  });
});
