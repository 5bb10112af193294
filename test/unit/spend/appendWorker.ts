// A second "window": appends `count` entries named `<name>-<i>` to the ledger in `dir`, one at a time.
import { SpendLedger, spendEntry } from '../../../src/core/spend/ledger';

const [dir, name, count, time] = process.argv.slice(2);
const ledger = new SpendLedger({ dir });
const usage = { prompt_tokens: 1000, completion_tokens: 333, total_tokens: 1333 };
const pricing = { input_per_million: '0.15', output_per_million: '0.6', pricing_version: '2026-01', unit: 'credits' };
void (async () => {
  for (let i = 0; i < Number(count); i++) {
    await ledger.append(spendEntry({ model: `${name}-${i}`, operation: 'o', keyName: name, usage, pricing, now: new Date(time) }));
  }
})();
