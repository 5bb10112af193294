// A second "window": appends `count` entries named `<name>-<i>` to the ledger in `dir`, one at a time.
// With a fifth argument `torn`, it also leaves a partial line (no newline) after every third entry, straight
// to the file as a killed write or a full disk would.
import { appendFile } from 'node:fs/promises';
import { SpendLedger, spendEntry, utcDay } from '../../../src/core/spend/ledger';

const [dir, name, count, time, torn] = process.argv.slice(2);
const ledger = new SpendLedger({ dir });
const usage = { prompt_tokens: 1000, completion_tokens: 333, total_tokens: 1333 };
const pricing = { input_per_million: '0.15', output_per_million: '0.6', pricing_version: '2026-01', unit: 'credits' };
void (async () => {
  for (let i = 0; i < Number(count); i++) {
    const entry = spendEntry({ model: `${name}-${i}`, operation: 'o', keyName: name, usage, pricing, now: new Date(time) });
    await ledger.append(entry);
    if (torn === 'torn' && i % 3 === 0) await appendFile(ledger.fileFor(utcDay(Date.parse(time))), JSON.stringify({ ...entry, model: `${name}-torn-${i}` }).slice(0, 30 + i));
  }
})();
