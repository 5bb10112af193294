/**
 * [#43.4] A deprecated gateway model used in VS Code's own chat is flagged once, with its alternative and
 * Switch Model, which switches VS Code's chat through the workbench's change-model command.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CHANGE_MODEL_COMMAND, flagDeprecatedModel } from '../../../../src/lm/deprecationFlag';
import type { Model } from '../../../../src/core/gateway/types';

const NOW = new Date('2026-11-29T12:00:00Z');
const model = (m: Partial<Model> & { id: string }): Model => ({ object: 'model', owned_by: 'x', provider: 'google', display_name: m.id, ...m }) as Model;
const CATALOG = [
  model({ id: 'google/gemini-2.0-flash', display_name: 'Gemini 2.0 Flash', description: 'Deprecated: use google/gemini-2.5-flash instead.', deprecation_date: '2026-09-30', removal_date: '2026-12-09' }),
  model({ id: 'google/gemini-2.5-flash', display_name: 'Gemini 2.5 Flash' }),
  model({ id: 'acme/old', display_name: 'Old', description: 'Old model.', deprecation_date: '2026-01-01' }),
];

let services: Parameters<typeof flagDeprecatedModel>[0];
beforeEach(() => {
  double.reset();
  const context = double.extensionContext() as unknown as vscode.ExtensionContext;
  services = { catalog: { getModel: (id: string) => CATALOG.find((m) => m.id === id), models: CATALOG } as never, context };
});

describe('[#43.4] deprecated model in VS Code chat', () => {
  test('[#43.4] flagged with its dates and the alternative; Switch Model switches the chat to it', async () => {
    double.answer('Switch Model');
    await flagDeprecatedModel(services, 'ai-gateway', 'google/gemini-2.0-flash', NOW);
    const [m] = double.messages;
    assert.equal(m.severity, 'warning');
    assert.equal(m.message, "Gemini 2.0 Flash, used in VS Code's chat, is deprecated. Deprecated since 2026-09-30. Removal date: 2026-12-09 (removed in 10 days). Alternative: google/gemini-2.5-flash.");
    assert.deepEqual(m.titles, ['Switch Model']);
    assert.deepEqual(double.executed.find((e) => e.command === CHANGE_MODEL_COMMAND)?.args, [{ vendor: 'ai-gateway', id: 'google/gemini-2.5-flash', family: 'google/gemini-2.5-flash' }]);
  });

  test('[#43.4] once: the same model is not flagged again', async () => {
    await flagDeprecatedModel(services, 'ai-gateway', 'google/gemini-2.0-flash', NOW);
    await flagDeprecatedModel(services, 'ai-gateway', 'google/gemini-2.0-flash', NOW);
    assert.equal(double.messages.length, 1);
  });

  test('[#43.4] an active model is not flagged; a deprecated one without an alternative has no Switch Model', async () => {
    await flagDeprecatedModel(services, 'ai-gateway', 'google/gemini-2.5-flash', NOW);
    assert.equal(double.messages.length, 0);
    await flagDeprecatedModel(services, 'ai-gateway', 'acme/old', NOW);
    assert.deepEqual(double.messages[0].titles, []);
    assert.match(double.messages[0].message, /^Old, used in VS Code's chat, is deprecated\. Deprecated since 2026-01-01\. No removal date announced\. Old model\.$/);
    assert.equal(double.executed.filter((e) => e.command === CHANGE_MODEL_COMMAND).length, 0);
  });
});
