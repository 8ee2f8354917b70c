/**
 * Prices and energy estimates of a skill (docs/extensions/accounting.md §3): what a quote says
 * a task will cost and what its actual use prices at. Every component of a schedule is one asset.
 */
import { toUnits } from './decimal.js';
import {
  ENERGY_DECIMALS,
  addAmounts,
  energy,
  scaleAmount,
  zeroOf,
  type Amount,
  type Duration,
  type Energy,
} from './quantities.js';
import type { EnergyEstimate, PriceSchedule } from './schemas.js';
import { fromUnits } from './decimal.js';

/** The asset a schedule charges in; throws when its components disagree or it has none. */
export function scheduleAsset(price: PriceSchedule): Pick<Amount, 'asset' | 'decimals'> {
  const parts = [price.flat, price.perSecond, price.perUnit].filter((a) => a !== undefined);
  const first = parts[0];
  if (first === undefined)
    throw new RangeError('a price schedule needs flat, perSecond or perUnit');
  for (const p of parts) {
    if (p.asset !== first.asset || p.decimals !== first.decimals) {
      throw new RangeError('every component of a price schedule must be in one asset');
    }
  }
  return { asset: first.asset, decimals: first.decimals };
}

/** The price of `duration` and `units` of output under `price` (each component rounded up). */
export function priceOf(price: PriceSchedule, duration: Duration, units: string): Amount {
  let total = zeroOf(scheduleAsset(price));
  if (price.flat) total = addAmounts(total, price.flat);
  if (price.perSecond)
    total = addAmounts(total, scaleAmount(price.perSecond, BigInt(duration.ms), 1000n));
  if (price.perUnit) total = addAmounts(total, scaleAmount(price.perUnit, units));
  return total;
}

/** The estimated energy of a task of `duration` under `estimate` (zero joules without one). */
export function estimateEnergy(estimate: EnergyEstimate | undefined, duration: Duration): Energy {
  let micro = 0n;
  if (estimate?.perTaskJoules) micro += toUnits(estimate.perTaskJoules, ENERGY_DECIMALS);
  if (estimate?.perSecondJoules) {
    micro += (toUnits(estimate.perSecondJoules, ENERGY_DECIMALS) * BigInt(duration.ms)) / 1000n;
  }
  return energy(fromUnits(micro, ENERGY_DECIMALS), 'estimated');
}
