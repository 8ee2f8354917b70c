import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ReadBatch } from './read-batch.js';

let db: Database.Database;
let dir: string;
afterEach(() => {
  if (db?.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A WAL file, as the store opens it, with three rows. */
function setup() {
  dir = mkdtempSync(join(tmpdir(), 'a2a-read-batch-'));
  db = new Database(join(dir, 'reads.db'));
  db.pragma('journal_mode = WAL');
  db.exec(
    "CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER); INSERT INTO t VALUES ('a', 1), ('b', 2), ('c', 3)",
  );
  const find = db.prepare<[string], { v: number }>('SELECT v FROM t WHERE k = ?');
  return { batch: new ReadBatch(db), find };
}

describe('ReadBatch', () => {
  it('answers the reads of one turn in one read transaction, each with its own value', async () => {
    const { batch, find } = setup();
    const inTx: boolean[] = [];
    const read = (k: string) =>
      batch.run(() => {
        inTx.push(db.inTransaction);
        return find.get(k)?.v;
      });
    const asked = [read('a'), read('b'), read('zz'), read('c')];
    expect(inTx).toEqual([]); // nothing read before the turn ends
    expect(await Promise.all(asked)).toEqual([1, 2, undefined, 3]);
    expect(inTx).toEqual([true, true, true, true]);
    expect(db.inTransaction).toBe(false);
  });

  it('fails a throwing read alone and leaves no transaction open', async () => {
    const { batch, find } = setup();
    const outcomes = await Promise.allSettled([
      batch.run(() => find.get('a')?.v),
      batch.run(() => {
        throw new Error('refused');
      }),
      batch.run(() => db.prepare('SELECT nope FROM t').get()), // an SQL error
      batch.run(() => find.get('c')?.v),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(outcomes[0]).toMatchObject({ value: 1 });
    expect(outcomes[3]).toMatchObject({ value: 3 });
    expect(db.inTransaction).toBe(false);
  });

  it('reads inside a transaction the caller holds without opening another', async () => {
    const { batch, find } = setup();
    const asked = [batch.run(() => find.get('a')?.v), batch.run(() => find.get('b')?.v)];
    db.exec('BEGIN IMMEDIATE');
    db.exec("UPDATE t SET v = 10 WHERE k = 'a'"); // the caller's own uncommitted write
    batch.flush();
    expect(db.inTransaction).toBe(true); // the caller's transaction is still its own
    db.exec('COMMIT');
    expect(await Promise.all(asked)).toEqual([10, 2]);
  });

  it('still answers every read when the shared transaction cannot be opened or ended', async () => {
    const { batch, find } = setup();
    const exec = db.exec.bind(db);
    for (const refused of ['BEGIN', 'COMMIT']) {
      db.exec = (sql: string) => {
        if (sql === refused) throw new Error(`${refused} refused`);
        return exec(sql);
      };
      const asked = [batch.run(() => find.get('a')?.v), batch.run(() => find.get('c')?.v)];
      expect(await Promise.all(asked)).toEqual([1, 3]);
      expect(db.inTransaction).toBe(false);
    }
  });

  it('rejects, rather than leaving waiting, the reads of a connection closed before the turn ended', async () => {
    const { batch, find } = setup();
    const asked = batch.run(() => find.get('a')?.v);
    db.close();
    await expect(asked).rejects.toThrow(/not open/);
  });
});
