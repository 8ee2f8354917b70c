/**
 * fast-check generators shared by the property tests that prove a hand-written writer equal to
 * a general one (src/security/audit-canonical.test.ts, src/bindings/v03/text.test.ts):
 * objects of known members with the variations such writers must get right.
 */
import fc from 'fast-check';

/**
 * An object of the given members (some left out), maybe with an extra member named by `key`, and
 * now and then not a plain object: no prototype, an inherited member, or a `toJSON`.
 */
export function objectOf(
  members: Record<string, fc.Arbitrary<unknown>>,
  key: fc.Arbitrary<string>,
): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(
      fc.record(members, { requiredKeys: [] }),
      fc.option(fc.tuple(key, fc.jsonValue({ maxDepth: 1 })), { freq: 8 }),
      fc.constantFrom('plain', 'plain', 'plain', 'plain', 'null-proto', 'inherits', 'toJSON'),
    )
    .map(([o, extra, kind]) => {
      const out: Record<string, unknown> = { ...o };
      if (extra) out[extra[0]] = extra[1];
      if (kind === 'null-proto') return Object.assign(Object.create(null) as object, out);
      if (kind === 'inherits') {
        return Object.assign(Object.create({ taskId: 'inherited' }) as object, out);
      }
      if (kind === 'toJSON') {
        Object.defineProperty(out, 'toJSON', { value: () => 1, enumerable: false });
      }
      return out;
    });
}
