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
  it('are numbered in increasing order, each once, up to SCHEMA_VERSION', () => {
    // Versions are assigned per change (a branch may land version 8 before 6 and 7).
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    expect(versions[0]).toBe(1);
    expect(versions[versions.length - 1]).toBe(SCHEMA_VERSION);
  });

  it('name prepared statements shortly and per schema', () => {
    const long = statementName('s'.repeat(56), 'find_message');
    expect(long.length).toBeLessThan(63);
    expect(statementName('a2a', 'append')).not.toBe(statementName('a2b', 'append'));
  });
});
