/**
 * The three accounting quantities of a task (docs/extensions/accounting.md §2): Duration
 * (integer milliseconds), Energy (joules as a decimal string, measured or estimated) and Amount
 * (a decimal string of an asset: an ISO 4217 currency or a CAIP-19 asset id, with its decimals).
 * Arithmetic is exact (BigInt scaled integers) and refuses to mix assets.
 */
import { DecimalError, decimalsOf, fromUnits, mulDivCeil, toUnits } from './decimal.js';

/** How long a task ran: a non-negative integer of milliseconds. */
export interface Duration {
  readonly ms: number;
}

/** How the joules of an {@link Energy} were obtained. */
export type EnergyMethod = 'measured' | 'estimated';

/** Energy use: joules as a decimal string (up to 6 decimals, i.e. microjoules). */
export interface Energy {
  readonly joules: string;
  readonly method: EnergyMethod;
}

/** A price: `value` (decimal string, never a float) of `asset` written with `decimals` places. */
export interface Amount {
  readonly value: string;
  /** ISO 4217 currency code (`USD`) or CAIP-19 asset id (`eip155:1/erc20:0xa0b8…`). */
  readonly asset: string;
  /** The asset's minor-unit decimals (USD 2, USDC 6): `value` has at most this many. */
  readonly decimals: number;
}

/** Thrown when quantities of different assets (or decimals) meet in one operation. */
export class AssetMismatchError extends Error {
  override readonly name = 'AssetMismatchError';
}

/** Decimals used for joules. */
export const ENERGY_DECIMALS = 6;

/** ISO 4217 alphabetic code. */
export const ISO_4217 = /^[A-Z]{3}$/;
/** CAIP-19 asset id: `namespace:reference/asset_namespace:asset_reference`. */
export const CAIP_19 =
  /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}\/[-a-z0-9]{3,8}:[-.%a-zA-Z0-9]{1,128}(\/[-.%a-zA-Z0-9]{1,78})?$/;

/** Minor-unit decimals of common ISO 4217 currencies (others: pass `decimals`). */
const CURRENCY_DECIMALS: Record<string, number> = { JPY: 0, KRW: 0, BHD: 3, KWD: 3 };

/** A duration of `ms` milliseconds (rounded down to an integer; never negative). */
export function duration(ms: number): Duration {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`invalid duration ${ms} ms`);
  return { ms: Math.floor(ms) };
}

/** Sum of durations. */
export function addDurations(...items: Duration[]): Duration {
  return { ms: items.reduce((total, d) => total + d.ms, 0) };
}

/** An energy of `joules` (a decimal string). */
export function energy(joules: string, method: EnergyMethod): Energy {
  return { joules: fromUnits(toUnits(joules, ENERGY_DECIMALS), ENERGY_DECIMALS), method };
}

/** Sum of energies; the result is `measured` only if every part was. */
export function addEnergy(...items: Energy[]): Energy {
  const total = items.reduce((sum, e) => sum + toUnits(e.joules, ENERGY_DECIMALS), 0n);
  const method = items.every((e) => e.method === 'measured') ? 'measured' : 'estimated';
  return { joules: fromUnits(total, ENERGY_DECIMALS), method };
}

/**
 * An amount of `asset`. `decimals` defaults to 2 for ISO 4217 codes (0 or 3 for the currencies
 * that use them) and is required for CAIP-19 assets.
 */
export function amount(value: string, asset: string, decimals?: number): Amount {
  let places = decimals;
  if (places === undefined) {
    if (!ISO_4217.test(asset)) throw new RangeError(`give the decimals of asset ${asset}`);
    places = CURRENCY_DECIMALS[asset] ?? 2;
  }
  if (!ISO_4217.test(asset) && !CAIP_19.test(asset)) {
    throw new RangeError(`"${asset}" is neither an ISO 4217 code nor a CAIP-19 asset id`);
  }
  if (!Number.isInteger(places) || places < 0 || places > 36) {
    throw new RangeError(`invalid decimals ${places}`);
  }
  return fromAmountUnits(toUnits(value, places), { asset, decimals: places });
}

/**
 * Parses the CLI form `0.10USD` (or `0.10 USD`, `0.10 eip155:1/erc20:0x…` with `decimals`).
 */
export function parseAmount(text: string, decimals?: number): Amount {
  const match = /^\s*([0-9.]+)\s*(\S+)\s*$/.exec(text);
  if (!match) throw new DecimalError(`"${text}" is not an amount like 0.10USD`);
  return amount(match[1] as string, match[2] as string, decimals);
}

/** `0.10 USD` */
export function formatAmount(a: Amount): string {
  return `${a.value} ${a.asset}`;
}

/** The integer count of minor units of `a` (0.10 USD → 10n). */
export function amountUnits(a: Amount): bigint {
  return toUnits(a.value, a.decimals);
}

/** The amount of `units` minor units of the asset of `like`. */
export function fromAmountUnits(units: bigint, like: Pick<Amount, 'asset' | 'decimals'>): Amount {
  return {
    value: fromUnits(units, like.decimals, Math.min(like.decimals, 2)),
    asset: like.asset,
    decimals: like.decimals,
  };
}

function sameAsset(a: Amount, b: Amount): void {
  if (a.asset !== b.asset || a.decimals !== b.decimals) {
    throw new AssetMismatchError(
      `cannot combine ${a.asset} (${a.decimals} decimals) with ${b.asset} (${b.decimals} decimals)`,
    );
  }
}

/** a + b (same asset). */
export function addAmounts(a: Amount, b: Amount): Amount {
  sameAsset(a, b);
  return fromAmountUnits(amountUnits(a) + amountUnits(b), a);
}

/** a − b (same asset); throws when b > a (amounts are never negative). */
export function subtractAmounts(a: Amount, b: Amount): Amount {
  sameAsset(a, b);
  const units = amountUnits(a) - amountUnits(b);
  if (units < 0n) throw new RangeError(`${formatAmount(b)} exceeds ${formatAmount(a)}`);
  return fromAmountUnits(units, a);
}

/** −1, 0 or 1 as a is less than, equal to or greater than b (same asset). */
export function compareAmounts(a: Amount, b: Amount): -1 | 0 | 1 {
  sameAsset(a, b);
  const d = amountUnits(a) - amountUnits(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** Zero of the asset of `like`. */
export function zeroOf(like: Pick<Amount, 'asset' | 'decimals'>): Amount {
  return fromAmountUnits(0n, like);
}

/**
 * `rate × quantity / per`, rounded up to the asset's minor unit: a price per second times the
 * milliseconds run (`per` = 1000), a price per unit times the units of output (`per` = 1).
 * `quantity` is a non-negative integer or decimal string.
 */
export function scaleAmount(rate: Amount, quantity: bigint | string, per: bigint = 1n): Amount {
  let numerator: bigint;
  let denominator = per;
  if (typeof quantity === 'bigint') numerator = quantity;
  else {
    const places = decimalsOf(quantity);
    numerator = toUnits(quantity, places);
    denominator = per * 10n ** BigInt(places);
  }
  return fromAmountUnits(mulDivCeil(amountUnits(rate), numerator, denominator), rate);
}
