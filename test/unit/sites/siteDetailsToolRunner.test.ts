import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isWebviewToHost } from '../../../src/protocol/toolsProtocol';
import { ToolPanelController } from '../../../src/core/mcp/toolPanelController';

describe('Show Site Details from the tool runner\'s list_account_sites result (#39.14)', () => {
  test('[#39.14] the page may ask for one site\'s details by identifier; an empty or oversized identifier is refused', () => {
    assert.equal(isWebviewToHost({ type: 'siteDetails', siteId: 'site_blog' }), true);
    assert.equal(isWebviewToHost({ type: 'siteDetails', siteId: '' }), false);
    assert.equal(isWebviewToHost({ type: 'siteDetails', siteId: 'x'.repeat(201) }), false);
    assert.equal(isWebviewToHost({ type: 'siteDetails', siteId: 3 }), false);
  });

  test('[#39.14] the host opens the details of the site asked for, and runs no tool', async () => {
    const opened: string[] = [];
    let runs = 0;
    const controller = new ToolPanelController({
      post: () => undefined,
      toolView: () => ({ serverId: 'gateway', serverLabel: 'AI Gateway', name: 'list_account_sites', inputSchema: { type: 'object' }, readOnly: true }),
      run: async () => {
        runs++;
        throw new Error('not expected');
      },
      history: () => [],
      entry: () => undefined,
      exportRequest: async () => '',
      copy: async () => undefined,
      openLink: async () => undefined,
      showSiteDetails: async (id) => void opened.push(id),
    });
    await controller.handle({ type: 'siteDetails', siteId: 'site_shop' });
    assert.deepEqual(opened, ['site_shop']);
    assert.equal(runs, 0);
  });
});
