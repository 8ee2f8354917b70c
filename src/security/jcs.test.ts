import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize, canonicalizeToBytes, JcsError } from './jcs.js';

/** A float64 from its IEEE 754 bit pattern in hex, as RFC 8785 Appendix B lists them. */
function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('RFC 8785 §3.2.2 sample (input with odd number and string spellings)', () => {
  // The RFC's input, written as JSON text so the parser sees the same spellings it shows.
  const input = String.raw`{
    "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
    "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
    "literals": [null, true, false]
  }`;
  const expected = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;

  it('produces the canonical text of §3.2.3', () => {
    expect(canonicalize(JSON.parse(input))).toBe(expected);
  });

  it('produces UTF-8 bytes with the euro sign as e2 82 ac and \\u000f escaped in lowercase', () => {
    const bytes = canonicalizeToBytes(JSON.parse(input));
    expect(hex(bytes)).toBe(hex(new TextEncoder().encode(expected)));
    expect(hex(bytes)).toContain(hex(new TextEncoder().encode('"€$\\u000f\\nA')));
  });
});

describe('RFC 8785 §3.2.3 property sorting', () => {
  it('orders names by UTF-16 code units, so the emoji surrogate pair sorts before U+FB33', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    const text = canonicalize(input);
    // (Object.keys would put "1" first: JS objects list integer-like names before the others.)
    const positions = order.map((k) => text.indexOf(`${JSON.stringify(k)}:`));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(text).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control",' +
        '"ö":"Latin Small Letter O With Diaeresis","€":"Euro Sign",' +
        '"😀":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('sorts integer-like names as strings, not in JS object order', () => {
    expect(canonicalize({ 9: 'a', 10: 'b', b: 1, a: 2 })).toBe('{"10":"b","9":"a","a":2,"b":1}');
  });

  it('sorts nested objects and keeps array order', () => {
    expect(canonicalize({ z: [{ b: 1, a: 2 }, 3], a: { d: null, c: true } })).toBe(
      '{"a":{"c":true,"d":null},"z":[{"a":2,"b":1},3]}',
    );
  });
});

describe('RFC 8785 Appendix B number serialization', () => {
  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'], // minus zero
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('serializes the double with bits %s as %s', (bits, text) => {
    expect(canonicalize(fromBits(bits))).toBe(text);
    expect(canonicalize([fromBits(bits)])).toBe(`[${text}]`);
  });

  it.each([
    ['7fffffffffffffff', 'NaN'],
    ['7ff0000000000000', 'Infinity'],
    ['fff0000000000000', '-Infinity'],
  ])('rejects the double with bits %s (%s)', (bits) => {
    expect(() => canonicalize({ n: fromBits(bits) })).toThrow(JcsError);
  });

  it.each([
    [1e21, '1e+21'],
    [1e-7, '1e-7'],
    [0.000001, '0.000001'],
    [-0, '0'],
    [4.5, '4.5'],
    [2e-3, '0.002'],
    [1e30, '1e+30'],
    [100, '100'],
    [123e-20, '1.23e-18'],
  ])('serializes %s as %s', (n, text) => {
    expect(canonicalize(n)).toBe(text);
  });
});

describe('string escaping (RFC 8785 §3.2.2.2)', () => {
  it.each([
    ['\b\f\n\r\t', '"\\b\\f\\n\\r\\t"'],
    ['"\\', '"\\"\\\\"'],
    ['\u0000\u0001\u001f', '"\\u0000\\u0001\\u001f"'],
    ['\u000b\u001b', '"\\u000b\\u001b"'],
    ['/', '"/"'],
    ['\u007f\u0080\u2028\u2029\ufeff', '"\u007f\u0080\u2028\u2029\ufeff"'],
    ['é€😀', '"é€😀"'],
  ])('writes %j as %s', (s, text) => {
    expect(canonicalize(s)).toBe(text);
  });

  it.each([['\ud800'], ['a\udfffb'], ['\ude00\ud83d'], ['x\ud83d']])(
    'rejects the lone surrogate in %j, in values and in names',
    (s) => {
      expect(() => canonicalize(s)).toThrow(/lone surrogate/);
      expect(() => canonicalize({ [s]: 1 })).toThrow(JcsError);
    },
  );
});

describe('values without a JSON form', () => {
  it('skips object members set to undefined, like JSON.stringify', () => {
    expect(canonicalize({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it.each([
    ['undefined in an array', [undefined]],
    ['a bigint', { n: 1n }],
    ['a function', { f: () => 1 }],
    ['a symbol', [Symbol('s')]],
    ['a Date (toJSON)', { d: new Date(0) }],
  ])('rejects %s', (_name, value) => {
    expect(() => canonicalize(value)).toThrow(JcsError);
  });

  it('rejects cycles but accepts a shared (acyclic) sub-object', () => {
    const shared = { x: 1 };
    expect(canonicalize({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => canonicalize(cyclic)).toThrow(/cyclic/);
  });
});

describe('properties', () => {
  const json = fc.jsonValue({ stringUnit: 'binary', maxDepth: 4 });

  it('is a fixed point: canonicalizing parsed canonical text gives the same text', () => {
    fc.assert(
      fc.property(json, (v) => {
        const text = canonicalize(v);
        expect(canonicalize(JSON.parse(text))).toBe(text);
      }),
    );
  });

  it('round-trips to an equal value and never contains insignificant whitespace', () => {
    fc.assert(
      fc.property(json, (v) => {
        const text = canonicalize(v);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
        expect(text).toBe(canonicalize(JSON.parse(JSON.stringify(v, null, 2))));
      }),
    );
  });
});
