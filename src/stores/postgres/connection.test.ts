/**
 * Reads run again when the server ended the connection the pool handed out (connection.ts
 * `readQuery`): the same statement on another connection, at most three times, and only for
 * a lost connection. The pool here is a stand-in that fails as pg does; the real case (idle
 * connections terminated under load) is test/integration/postgres-faults.test.ts.
 */
import type { Pool } from 'pg';
import { describe, expect, it } from 'vitest';
import { connectionLost, readQuery } from './connection.js';

/** A pool whose query throws `failures` in order, then answers. */
function pool(failures: Error[]): { pool: Pool; calls: () => number } {
  let calls = 0;
  const query = async () => {
    const failure = failures[calls++];
    if (failure !== undefined) throw failure;
    return { rows: [{ n: 1 }] };
  };
  return { pool: { query } as unknown as Pool, calls: () => calls };
}

const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
  code: '57P01',
});
const closed = new Error('Connection terminated unexpectedly');
const syntax = Object.assign(new Error('syntax error'), { code: '42601' });

describe('readQuery', () => {
  it('runs a read again when its connection was ended by the server or closed', async () => {
    const p = pool([terminated, closed]);
    const result = await readQuery<{ n: number }>(p.pool, { text: 'SELECT 1 AS n' });
    expect(result.rows).toEqual([{ n: 1 }]);
    expect(p.calls()).toBe(3);
  });

  it('gives up after three attempts, and never retries another error', async () => {
    const lost = pool([terminated, terminated, terminated, terminated]);
    await expect(readQuery(lost.pool, { text: 'SELECT 1' })).rejects.toBe(terminated);
    expect(lost.calls()).toBe(3);
    const bad = pool([syntax]);
    await expect(readQuery(bad.pool, { text: 'SELEC 1' })).rejects.toBe(syntax);
    expect(bad.calls()).toBe(1);
  });

  it('tells a lost connection from other errors', () => {
    expect(connectionLost(terminated)).toBe(true);
    expect(connectionLost({ code: '57P02' })).toBe(true);
    expect(connectionLost(closed)).toBe(true);
    expect(connectionLost(syntax)).toBe(false);
    expect(connectionLost(undefined)).toBe(false);
  });
});
