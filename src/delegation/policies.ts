/**
 * Ranking policies of Contract Net (docs/extensions/delegation.md §2.3): cheapest, fastest,
 * least energy, weighted. Integer arithmetic only: amounts compare exactly, and the weighted
 * policy adds integer ranks, never floating scores.
 */
import { ENERGY_DECIMALS, compareAmounts } from '../accounting/quantities.js';
import { toUnits } from '../accounting/decimal.js';
import type { Bid } from './types.js';

/** Orders bids best first; bids it leaves out are not awarded. */
export type RankPolicy =
  | 'cheapest'
  | 'fastest'
  | 'least-energy'
  | { weights: { amount?: number; duration?: number; energy?: number } }
  | ((bids: readonly Bid[]) => readonly Bid[]);

type Compare = (a: Bid, b: Bid) => number;

const byAmount: Compare = (a, b) => compareAmounts(a.quote.amount, b.quote.amount);
const byDuration: Compare = (a, b) => a.quote.duration.ms - b.quote.duration.ms;
const byEnergy: Compare = (a, b) => {
  const d =
    toUnits(a.quote.energy.joules, ENERGY_DECIMALS) -
    toUnits(b.quote.energy.joules, ENERGY_DECIMALS);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};

/** The bids in the order `policy` ranks them (stable: ties keep arrival order). */
export function rankBids(bids: readonly Bid[], policy: RankPolicy): Bid[] {
  if (typeof policy === 'function') return [...policy(bids)];
  const ordered = (compare: Compare) =>
    [...bids].sort((a, b) => compare(a, b) || a.arrival - b.arrival);
  if (policy === 'cheapest') return ordered((a, b) => byAmount(a, b) || byDuration(a, b));
  if (policy === 'fastest') return ordered((a, b) => byDuration(a, b) || byAmount(a, b));
  if (policy === 'least-energy') return ordered((a, b) => byEnergy(a, b) || byAmount(a, b));
  const { amount = 0, duration = 0, energy = 0 } = policy.weights;
  const rank = (compare: Compare) => {
    const sorted = [...bids].sort(compare);
    // Equal values share a rank.
    return new Map(bids.map((b) => [b, sorted.findIndex((s) => compare(s, b) === 0)]));
  };
  const [ra, rd, re] = [rank(byAmount), rank(byDuration), rank(byEnergy)];
  const score = (b: Bid) =>
    amount * (ra.get(b) ?? 0) + duration * (rd.get(b) ?? 0) + energy * (re.get(b) ?? 0);
  return [...bids].sort((a, b) => score(a) - score(b) || a.arrival - b.arrival);
}
