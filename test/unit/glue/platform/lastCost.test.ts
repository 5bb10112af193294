/**
 * [#43.4] The spend status bar entry shows the last priced request's exact cost beside the day's total
 * (every surface records there, VS Code's chat requests to gateway models included).
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Services } from '../../../../src/services';

let services: Services;
let storage: string;
beforeEach(async () => {
  double.reset();
  storage = await mkdtemp(join(tmpdir(), 'tools43-last-'));
  services = new Services(double.extensionContext({ globalStorageUri: vscode.Uri.file(storage) }) as unknown as vscode.ExtensionContext);
});
afterEach(async () => {
  services.dispose();
  await rm(storage, { recursive: true, force: true });
});

const PRICING = { input_per_million: '1', output_per_million: '5', pricing_version: '2025-11-01', unit: 'credits' };
const item = () => double.statusBarItems.find((i) => i.id === 'aiGateway.budget')!;
async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !pred(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(pred(), `the condition never held: ${item().text}`);
}

describe('[#43.4] last request cost in the status bar', () => {
  test("[#43.4] the last request's exact cost is shown beside the day's total, and follows the next request", async () => {
    // 1,000,000 input tokens at 1 credit per million: 1 credit.
    await services.spend.recordSpend({ model: 'a/one', operation: 'lm-chat', usage: { prompt_tokens: 1_000_000, completion_tokens: 0, total_tokens: 1_000_000 }, pricing: PRICING });
    await until(() => item().text.includes('last'));
    assert.equal(item().text, '$(credit-card) 1 credit today · last 1 credit · local');
    // 1,000 input + 2,000 output tokens: 0.001 + 0.01 = 0.011 credits; the day is 1.011 credits.
    await services.spend.recordSpend({ model: 'b/two', operation: 'lm-chat', usage: { prompt_tokens: 1000, completion_tokens: 2000, total_tokens: 3000 }, pricing: PRICING });
    await until(() => item().text.includes('last 0.011'));
    assert.equal(item().text, '$(credit-card) 1.011 credits today · last 0.011 credits · local');
    assert.match(String(item().tooltip), /Last request: 0\.011 credits on b\/two\.$/);
  });
});
