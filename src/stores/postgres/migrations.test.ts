import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION, quoteSchema } from './migrations.js';
import { statementName } from './statements.js';

describe('quoteSchema', () => {
  it.each(['a2a', '_x', 'tenant_42', 'a'.repeat(56)])('accepts %s', (name) => {
    expect(quoteSchema(name)).toBe(`"${name}"`);
  });

  it.each(['', 'A2A', '1abc', 'a-b', 'a"; DROP TABLE x; --', 'a'.repeat(57), 'é'])(
    'refuses %j',
    (name) => {
      expect(() => quoteSchema(name)).toThrow(/invalid PostgreSQL schema name/);
    },
  );
});

describe('migrations', () => {
  it('are numbered 1..N without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1),
    );
  });

  it('name prepared statements shortly and per schema', () => {
    const long = statementName('s'.repeat(56), 'find_message');
    expect(long.length).toBeLessThan(63);
    expect(statementName('a2a', 'append')).not.toBe(statementName('a2b', 'append'));
  });
});
