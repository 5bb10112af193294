/**
 * Cost per reply and per conversation, in exact nanocredits (1 credit = 1,000,000,000 nanocredits).
 * The rate arithmetic lives in src/core/pricing.ts; this file adapts it to chat usage and totals.
 * No floating point anywhere (G-CAT-8).
 */
import type { Model, ModelPricing, Usage } from '../gateway/types';
import type { CostView } from '../../protocol/chatProtocol';
import { formatCredits, usageCostNano } from '../pricing';

/** Nanocredits for one reply's usage at the given rates, or undefined when the rates do not apply. */
export type CostFn = (pricing: ModelPricing, usage: Usage) => bigint | undefined;

export const defaultCostFn: CostFn = usageCostNano;

export function replyCostNano(costOf: CostFn, model: Model, usage: Usage): bigint | undefined {
  if (!model.pricing) return undefined;
  return costOf(model.pricing, usage);
}

/** Exact sum of stored per-reply costs (decimal integer strings); malformed entries are ignored. */
export function sumNano(values: readonly string[]): bigint {
  let total = 0n;
  for (const v of values) if (/^-?\d+$/.test(v)) total += BigInt(v);
  return total;
}

export function costView(nano: bigint): CostView {
  return { nanocredits: nano.toString(), display: formatCredits(nano) };
}

/** A stopped reply's usage when the gateway reported none: see core/spend/charge.ts. */
export { estimatedUsage } from '../spend/charge';
