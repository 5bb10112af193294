import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelsForCapability } from '../../../src/core/catalog/query';
import { at, model } from './fixtures';

const NOW = at('2026-06-10');
const models = [
  model('a/tools-old', { display_name: 'A', capabilities: ['chat', 'tools'], deprecation_date: '2026-01-01' }),
  model('a/tools', { display_name: 'Z', capabilities: ['chat', 'tools'] }),
  model('a/chat-only', { display_name: 'B', capabilities: ['chat'] }),
  model('a/tools-gone', { display_name: 'C', capabilities: ['tools'], removal_date: '2026-06-10' }),
  model('a/none', { display_name: 'D' }),
];

test('[G-CAT-3] models for "tools" are exactly the tool-capable, not-removed models; active first', () => {
  assert.deepEqual(modelsForCapability(models, 'tools', NOW).map((m) => m.id), ['a/tools', 'a/tools-old']);
  assert.deepEqual(modelsForCapability(models, 'tools', NOW, { includeDeprecated: false }).map((m) => m.id), ['a/tools']);
});

test('[G-CAT-11] removed models are never offered', () => {
  assert.ok(!modelsForCapability(models, 'tools', NOW).some((m) => m.id === 'a/tools-gone'));
  assert.ok(modelsForCapability(models, 'tools', at('2026-06-09')).some((m) => m.id === 'a/tools-gone'));
});

test('models for "chat" include chat-only models; missing capabilities match nothing', () => {
  assert.deepEqual(modelsForCapability(models, 'chat', NOW).map((m) => m.id), ['a/chat-only', 'a/tools', 'a/tools-old']);
  assert.deepEqual(modelsForCapability(models, 'vision', NOW), []);
});
