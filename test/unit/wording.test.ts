/**
 * #29.13, wording and look: counts agree with their nouns ("1 document", never "1 documents"), minimum
 * and maximum lengths read as words ("at least 1 character", not "(min 1 chars)"), the usage filters and
 * provider groups are named as people say them, and the audio player follows a dark theme.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countOf } from '../../src/core/words';
import { describeConstraints, type FormField } from '../../src/protocol/toolsForm';
import { ACTOR_TYPES, AUTH_METHODS, DIMENSION_LABELS, dimensionValueLabel, GROUP_BY_DIMENSIONS } from '../../src/protocol/usageProtocol';
import { providerName, PROVIDER_NAMES } from '../../src/core/catalog/providerNames';
import { PROVIDERS } from '../../src/core/gateway/types';
import { parseScheduledTime } from '../../src/core/account/transferForm';

const ROOT = join(__dirname, '..', '..');

describe('wording', () => {
  test('[#29.13] counts agree with their nouns', () => {
    assert.equal(countOf(1, 'document'), '1 document');
    assert.equal(countOf(0, 'document'), '0 documents');
    assert.equal(countOf(1024, 'model'), '1,024 models');
    assert.equal(countOf(1, 'entry', 'entries'), '1 entry');
    assert.equal(countOf(2, 'entry', 'entries'), '2 entries');
  });

  test('[#29.13] no "<count> <noun>s" without a plural check in the files this issue named', () => {
    // The places that printed "1 documents", "1 models", "1 calls", "1 requests", "1 characters".
    const files = ['src/knowledge/knowledgeCommands.ts', 'src/catalog/catalogCommands.ts', 'src/mcp/mcpCommands.ts', 'src/webview/usage/main.ts', 'src/webview/media/audio.ts', 'src/media/speechCommand.ts', 'src/core/usage/analytics.ts', 'src/core/account/transferForm.ts'];
    const bare = /\$\{([^{}]+)\} (documents|models|calls|requests|characters|seconds|hours|days)\b/g;
    const found: string[] = [];
    for (const f of files) for (const m of readFileSync(join(ROOT, f), 'utf8').matchAll(bare)) found.push(`${f}: ${m[0]}`);
    assert.deepEqual(found, []);
  });

  test('[#29.13] a length limit reads as words: "at least 1 character", never "(min 1 chars)"', () => {
    const field = { name: 'q', label: 'Query', kind: 'string', required: true, minLength: 1, maxLength: 200 } as unknown as FormField;
    assert.equal(describeConstraints(field), 'at least 1 character, at most 200 characters');
    assert.doesNotMatch(describeConstraints(field), /chars|min |max /);
  });

  test('[#29.13] a scheduled time outside the window names its distance in agreeing units', () => {
    const now = Date.UTC(2026, 10, 23, 12);
    const r = parseScheduledTime('2026-11-23 12:30', now);
    assert.ok('error' in r);
    assert.match(r.error, /0\.5 hours ahead/);
    const d = parseScheduledTime('2026-11-30 13:00', now);
    assert.ok('error' in d);
    assert.match(d.error, /7 days ahead|7\.0 days ahead/);
  });

  test('[#29.13] the usage filters are named in words people use, every dimension and value', () => {
    for (const d of GROUP_BY_DIMENSIONS) assert.doesNotMatch(DIMENSION_LABELS[d], /_/, d);
    assert.equal(DIMENSION_LABELS.auth_method, 'Signed in with');
    assert.equal(DIMENSION_LABELS.actor_type, 'Who called');
    assert.equal(DIMENSION_LABELS.client_id, 'Site');
    for (const v of AUTH_METHODS) assert.doesNotMatch(dimensionValueLabel('auth_method', v), /_/, v);
    for (const v of ACTOR_TYPES) assert.doesNotMatch(dimensionValueLabel('actor_type', v), /_/, v);
    assert.equal(dimensionValueLabel('auth_method', 'api_key'), 'API key');
    assert.equal(dimensionValueLabel('auth_method', 'something_new'), 'something_new', 'an undocumented value is shown as sent');
    const page = readFileSync(join(ROOT, 'src', 'webview', 'usage', 'main.ts'), 'utf8');
    assert.doesNotMatch(page, /select\('authMethod', 'auth_method', AUTH_METHODS/, 'the filter menus show labels, not the raw API names');
  });

  test('[#29.13] provider groups show provider names, every documented provider; others as sent', () => {
    for (const p of PROVIDERS) assert.ok(PROVIDER_NAMES[p] && PROVIDER_NAMES[p] !== p, p);
    assert.equal(providerName('openai'), 'OpenAI');
    assert.equal(providerName('acme'), 'acme');
    assert.equal(providerName('constructor'), 'constructor', 'no prototype key is taken for a name');
  });

  test('[#29.13] the audio player follows a dark theme (not a white pill)', () => {
    const css = readFileSync(join(ROOT, 'src', 'webview', 'media', 'media.css'), 'utf8');
    assert.match(css, /body\.vscode-dark audio[^{]*\{[^}]*color-scheme:\s*dark/);
    assert.match(css, /audio::-webkit-media-controls-panel\s*\{[^}]*var\(--vscode-/);
  });
});
