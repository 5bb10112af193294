/**
 * The vscode-free translator (src/core/l10n.ts) follows vscode.l10n.t: the English message is the key,
 * placeholders are filled after the lookup, a comment is part of the key.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as l10n from '../../../src/core/l10n';

afterEach(() => l10n.configure({}));

describe('core l10n.t', () => {
  test('[#30.2] without a bundle the English message comes back with its placeholders filled', () => {
    assert.equal(l10n.t('Deleted {0} of {1}', 'a.png', 3), 'Deleted a.png of 3');
    assert.equal(l10n.t('Hello {name}', { name: 'Ana' }), 'Hello Ana');
    assert.equal(l10n.t('Left alone {2} {x}', 'only'), 'Left alone {2} {x}');
  });

  test('[#30.2] a bundle entry replaces the message, placeholders filled into the translation', () => {
    l10n.configure({ bundle: { 'Deleted {0} of {1}': '{1} dont {0} supprimé', 'Key {k}': { message: 'Schlüssel {k}' } }, locale: 'de' });
    assert.equal(l10n.t('Deleted {0} of {1}', 'a.png', 3), '3 dont a.png supprimé');
    assert.equal(l10n.t('Key {k}', { k: 'x' }), 'Schlüssel x');
    assert.equal(l10n.displayLocale(), 'de');
  });

  test('[#30.2] a message with a comment is keyed message/comment, as vscode.l10n does', () => {
    l10n.configure({ bundle: { 'Open/verb': 'Öffnen', Open: 'Offen' } });
    assert.equal(l10n.t({ message: 'Open', comment: ['verb'] }), 'Öffnen');
    assert.equal(l10n.t('Open'), 'Offen');
  });

  test('[#30.2] an argument is inserted as text, never read as a placeholder again', () => {
    assert.equal(l10n.t('{0} and {1}', '{1}', 'b'), '{1} and b');
  });

  test('[#30.2] a malformed display language falls back to English formatting', () => {
    l10n.configure({ locale: 'de"; drop' });
    assert.equal(l10n.displayLocale(), 'en');
    l10n.configure({ locale: 'qps-ploc' });
    assert.equal(l10n.displayLocale(), 'qps-ploc');
  });
});
