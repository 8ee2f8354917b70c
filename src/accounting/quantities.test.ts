/** Property tests of the accounting quantities (docs/extensions/accounting.md §2). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AssetMismatchError,
  addAmounts,
  addEnergy,
  amount,
  amountUnits,
  compareAmounts,
  fromAmountUnits,
  parseAmount,
  scaleAmount,
  subtractAmounts,
} from './quantities.js';
import { AmountSchema, EnergySchema, accountingJsonSchema, ACCOUNTING_OBJECTS } from './schemas.js';
import { fromUnits, toUnits } from './decimal.js';

const units = fc.bigInt({ min: 0n, max: 10n ** 30n });
const decimals = fc.integer({ min: 0, max: 18 });
const asset = fc.constantFrom(
  'USD',
  'EUR',
  'eip155:1/erc20:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
);

describe('Amount arithmetic (docs/extensions/accounting.md §2)', () => {
  it('a decimal string round-trips through units without losing a digit', () => {
    fc.assert(
      fc.property(units, decimals, (u, d) => {
        expect(toUnits(fromUnits(u, d), d)).toBe(u);
      }),
    );
  });

  it('addition is exact, commutative and associative', () => {
    fc.assert(
      fc.property(units, units, units, decimals, asset, (a, b, c, d, code) => {
        const [x, y, z] = [a, b, c].map((u) =>
          fromAmountUnits(u, { asset: code, decimals: d }),
        ) as [
          ReturnType<typeof fromAmountUnits>,
          ReturnType<typeof fromAmountUnits>,
          ReturnType<typeof fromAmountUnits>,
        ];
        expect(amountUnits(addAmounts(x, y))).toBe(a + b);
        expect(addAmounts(x, y)).toEqual(addAmounts(y, x));
        expect(addAmounts(addAmounts(x, y), z)).toEqual(addAmounts(x, addAmounts(y, z)));
      }),
    );
  });

  it('subtraction undoes addition and never goes below zero', () => {
    fc.assert(
      fc.property(units, units, decimals, (a, b, d) => {
        const like = { asset: 'USD', decimals: d };
        const x = fromAmountUnits(a, like);
        const y = fromAmountUnits(b, like);
        expect(subtractAmounts(addAmounts(x, y), y)).toEqual(x);
        if (a < b) expect(() => subtractAmounts(x, y)).toThrow(RangeError);
        expect(compareAmounts(x, y)).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
    );
  });

  it('0.1 + 0.2 is exactly 0.3 (no float anywhere)', () => {
    expect(addAmounts(amount('0.1', 'USD'), amount('0.2', 'USD')).value).toBe('0.30');
    expect(addAmounts(amount('0.1', 'ETH', 18), amount('0.2', 'ETH', 18)).value).toBe('0.30');
  });

  it('refuses to mix assets or decimals', () => {
    fc.assert(
      fc.property(units, units, (a, b) => {
        const usd = fromAmountUnits(a, { asset: 'USD', decimals: 2 });
        const eur = fromAmountUnits(b, { asset: 'EUR', decimals: 2 });
        const usd6 = fromAmountUnits(b, { asset: 'USD', decimals: 6 });
        expect(() => addAmounts(usd, eur)).toThrow(AssetMismatchError);
        expect(() => compareAmounts(usd, usd6)).toThrow(AssetMismatchError);
      }),
    );
  });

  it('scaling rounds up to the minor unit and is exact when it divides', () => {
    fc.assert(
      fc.property(units, fc.bigInt({ min: 0n, max: 10n ** 9n }), (rate, ms) => {
        const perSecond = fromAmountUnits(rate, { asset: 'USD', decimals: 2 });
        const charged = amountUnits(scaleAmount(perSecond, ms, 1000n));
        expect(charged * 1000n >= rate * ms).toBe(true);
        expect((charged - 1n) * 1000n < rate * ms || charged === 0n).toBe(true);
      }),
    );
    expect(scaleAmount(amount('0.01', 'USD'), '2.5').value).toBe('0.03');
    expect(scaleAmount(amount('0.02', 'USD'), 1500n, 1000n).value).toBe('0.03');
  });

  it('rejects more decimals than the asset has, floats, negatives and bad assets', () => {
    expect(() => amount('0.001', 'USD')).toThrow();
    expect(() => amount('-1', 'USD')).toThrow();
    expect(() => amount('1e3', 'USD')).toThrow();
    expect(() => amount('1', 'usd')).toThrow();
    expect(() => amount('1', 'eip155:1/erc20:0xabc')).toThrow(/decimals/);
    expect(amount('5', 'JPY').value).toBe('5');
    expect(parseAmount('0.10USD')).toEqual({ value: '0.10', asset: 'USD', decimals: 2 });
  });

  it('energy sums exactly and is measured only if every part was', () => {
    expect(
      addEnergy({ joules: '0.1', method: 'measured' }, { joules: '0.2', method: 'measured' }),
    ).toEqual({ joules: '0.3', method: 'measured' });
    expect(
      addEnergy({ joules: '1', method: 'measured' }, { joules: '2', method: 'estimated' }).method,
    ).toBe('estimated');
  });
});

describe('validation and JSON Schema', () => {
  it('zod accepts every amount the arithmetic produces and rejects floats', () => {
    fc.assert(
      fc.property(units, decimals, asset, (u, d, code) => {
        expect(
          AmountSchema.safeParse(fromAmountUnits(u, { asset: code, decimals: d })).success,
        ).toBe(true);
      }),
    );
    expect(AmountSchema.safeParse({ value: 0.1, asset: 'USD', decimals: 2 }).success).toBe(false);
    expect(AmountSchema.safeParse({ value: '0.101', asset: 'USD', decimals: 2 }).success).toBe(
      false,
    );
    expect(EnergySchema.safeParse({ joules: '1.5', method: 'guessed' }).success).toBe(false);
  });

  it('every object has a JSON Schema with an $id in our namespace', () => {
    for (const name of Object.keys(ACCOUNTING_OBJECTS) as (keyof typeof ACCOUNTING_OBJECTS)[]) {
      const schema = accountingJsonSchema(name);
      expect(schema.$id).toBe(`urn:a2a-kit:extension:accounting:v1:schema:${name}`);
      expect(schema.type).toBe('object');
    }
    const amountSchema = accountingJsonSchema('Amount') as {
      properties: Record<string, { type: string }>;
    };
    expect(amountSchema.properties.value?.type).toBe('string');
  });
});
