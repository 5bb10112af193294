// Property tests (fast-check) for [#27.6]: agent chat's approval of the gateway's run_site_ability never
// depends on what the server says about the tool. Whatever annotations the tool list carries (any
// JSON, readOnlyHint true included) and whatever the arguments, the call asks, unless the user's own
// setting skips the question for read-only abilities AND the site itself says this ability is
// read-only. The same property for any other tool the server does not mark read-only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { approvalFor } from '../../../src/core/agentLoop/agentLoop';
import { buildToolbox } from '../../../src/core/agentLoop/toolbox';
import { abilityTarget } from '../../../src/core/mcp/abilities';
import { OutcomeLedger } from '../../../src/core/mcp/outcomeLedger';
import type { McpTool } from '../../../src/core/mcp/types';

const RUNS = 2_000;
const ledger = new OutcomeLedger({ get: () => [], set: () => {} });

const annotations = fc.oneof(
  fc.record({ readOnlyHint: fc.oneof(fc.constant(true), fc.anything()), destructiveHint: fc.anything(), idempotentHint: fc.anything(), openWorldHint: fc.anything(), title: fc.anything() }, { requiredKeys: [] }),
  fc.constant({ readOnlyHint: true }),
  fc.anything(),
);
const text = fc.oneof(fc.constantFrom('site_blog', 'core/create-post', 'core/get-post', ''), fc.string({ maxLength: 12 }));
const args = fc.oneof(
  fc.record({ site_id: text, ability: text, input: fc.anything() }, { requiredKeys: [] }),
  fc.record({ site: text, name: text, arguments: fc.anything() }, { requiredKeys: [] }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.anything(), { maxKeys: 4 }),
);
/** What the site says about the ability: read-only, not, or no answer (the read failed). */
const siteSays = fc.constantFrom<'read-only' | 'write' | 'fails'>('read-only', 'write', 'fails');

test('[#27.6] run_site_ability asks whatever its server says about it; only the user\'s setting plus the site\'s own answer can skip the question', async () => {
  await fc.assert(
    fc.asyncProperty(annotations, args, fc.boolean(), siteSays, async (ann, a, confirmReadOnlyAbilities, site) => {
      const box = buildToolbox([{ serverId: 'gateway', serverLabel: 'AI Gateway', isGateway: true, tools: [{ name: 'run_site_ability', inputSchema: { type: 'object' }, annotations: ann } as McpTool] }], 'user');
      const tool = box.tools[0]!;
      const d = await approvalFor(
        tool,
        a as Record<string, unknown>,
        {
          ledger,
          confirmReadOnlyAbilities,
          abilityReadOnly: async () => {
            if (site === 'fails') throw new Error('list_site_abilities failed');
            return site === 'read-only';
          },
        },
        new AbortController().signal,
      );
      const target = abilityTarget(a as Record<string, unknown>);
      const named = Boolean(target.site) && Boolean(target.ability);
      const mayRunUnasked = !confirmReadOnlyAbilities && site === 'read-only' && named;
      if (!mayRunUnasked) {
        assert.equal(d.approval?.kind, 'ability', `asks (annotations ${JSON.stringify(ann)})`);
        assert.equal(d.readOnly, false);
      }
    }),
    { numRuns: RUNS },
  );
});

test('[#27.6] any tool its server does not mark readOnlyHint: true asks, whatever else the annotations say', async () => {
  await fc.assert(
    fc.asyncProperty(annotations, fc.boolean(), fc.constantFrom('notes_write', 'delete_everything', 'kb_search'), async (ann, isGateway, name) => {
      const box = buildToolbox([{ serverId: 's', serverLabel: 'Server', isGateway, tools: [{ name, inputSchema: { type: 'object' }, annotations: ann } as McpTool] }], 'user', { kbSearch: true });
      const tool = box.tools[0]!;
      const d = await approvalFor(tool, {}, { ledger, confirmReadOnlyAbilities: true }, new AbortController().signal);
      const markedReadOnly = typeof ann === 'object' && ann !== null && (ann as { readOnlyHint?: unknown }).readOnlyHint === true;
      if (markedReadOnly) assert.equal(d.approval, undefined);
      else assert.equal(d.approval?.kind, 'write');
    }),
    { numRuns: RUNS },
  );
});
