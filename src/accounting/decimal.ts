/**
 * Exact decimal numbers as BigInt scaled integers: "12.345" at scale 3 is 12345n. No float is
 * ever used, so sums and products of amounts never lose a digit.
 */

/** Thrown for a decimal string that is malformed or has more digits than its scale allows. */
export class DecimalError extends Error {
  override readonly name = 'DecimalError';
}

/** A non-negative decimal: digits, optionally a point and more digits ("0", "0.10", "12"). */
export const DECIMAL_PATTERN = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** `text` as an integer count of 10^-scale units; throws when it has more than `scale` decimals. */
export function toUnits(text: string, scale: number): bigint {
  if (!DECIMAL_PATTERN.test(text)) throw new DecimalError(`"${text}" is not a decimal number`);
  const [whole = '0', fraction = ''] = text.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > scale) {
    throw new DecimalError(`"${text}" has more than ${scale} decimal places`);
  }
  return BigInt(whole + trimmed.padEnd(scale, '0'));
}

/** Units of 10^-scale as the shortest decimal string with at least `minDecimals` decimals. */
export function fromUnits(units: bigint, scale: number, minDecimals = 0): string {
  if (units < 0n) throw new DecimalError('a negative quantity has no decimal form here');
  const digits = units.toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  let fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  if (fraction.length < minDecimals) fraction = fraction.padEnd(minDecimals, '0');
  return fraction.length > 0 ? `${whole}.${fraction}` : whole;
}

/** The number of decimals `text` is written with ("0.10" → 2). */
export function decimalsOf(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/**
 * `units × numerator / denominator`, rounded up to a whole unit: a price per second times a
 * duration never rounds a charge down to nothing, and the result is exact when it divides.
 */
export function mulDivCeil(units: bigint, numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new DecimalError('division by a non-positive number');
  if (numerator < 0n || units < 0n) throw new DecimalError('negative factor');
  const product = units * numerator;
  return (product + denominator - 1n) / denominator;
}
