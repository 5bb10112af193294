/**
 * `npm start` says "Preparing the editor…" only when it will download the editor (newcomer pass, #41): an
 * editor already in .cache/editor starts without the notice.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { provisionAnnounced } from '../../scripts/startProgress';

const ROOT = join(__dirname, '..', '..');

describe('npm start: the editor notice', () => {
  test('nothing to download: nothing said, the editor returned', () => {
    const said: string[] = [];
    const details: string[] = [];
    const r = provisionAnnounced(() => 'ready', (l) => said.push(l), (l) => details.push(l));
    assert.equal(r, 'ready');
    assert.deepEqual(said, []);
    assert.deepEqual(details, []);
  });

  test('a download: the notice once, before the provisioning lines', () => {
    const out: string[] = [];
    provisionAnnounced(
      (log) => {
        log('[provision] installing Node 24');
        log('[provision] installing code-server');
        return 'ready';
      },
      (l) => out.push(`say ${l}`),
      (l) => out.push(`detail ${l}`),
    );
    assert.equal(out.length, 3);
    assert.match(out[0]!, /^say Preparing the editor in \.cache\/editor \(the first run downloads Node 24 and code-server/);
    assert.deepEqual(out.slice(1), ['detail [provision] installing Node 24', 'detail [provision] installing code-server']);
  });

  test('scripts/start.ts announces through provisionAnnounced, never unconditionally', () => {
    const start = readFileSync(join(ROOT, 'scripts', 'start.ts'), 'utf8');
    assert.match(start, /provisionAnnounced\(\(log\) => provisionEditor\(\{ chromium: false, log \}\)/);
    assert.doesNotMatch(start, /Preparing the editor/);
  });

  const ready = ['node24', 'code-server'].every((d) => existsSync(join(ROOT, '.cache', 'editor', d, '.ready')));
  test('an editor already provisioned in .cache/editor: provisioning writes no line, so npm start says nothing', { skip: ready ? false : 'no provisioned editor in .cache/editor' }, async () => {
    const { provisionEditor } = await import('../../scripts/provision-editor.mjs');
    const lines: string[] = [];
    provisionEditor({ chromium: false, log: (l) => lines.push(l) });
    assert.deepEqual(lines, []);
  });
});
