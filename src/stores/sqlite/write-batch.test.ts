import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { WriteBatch } from './write-batch.js';

let db: Database.Database;
afterEach(() => db?.close());

function setup() {
  db = new Database(':memory:');
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
  const insert = db.prepare('INSERT INTO t (k, v) VALUES (?, ?)');
  const rows = () => db.prepare('SELECT k FROM t ORDER BY k').pluck().all();
  return { batch: new WriteBatch(db), insert, rows };
}

describe('WriteBatch', () => {
  it('runs the writes of one turn in one transaction, in order, and resolves each', async () => {
    const { batch, insert, rows } = setup();
    const inTx: boolean[] = [];
    const results = await Promise.all(
      ['a', 'b', 'c'].map((k, i) =>
        batch.run(() => {
          inTx.push(db.inTransaction);
          insert.run(k, i);
          return i * 10;
        }),
      ),
    );
    expect(results).toEqual([0, 10, 20]);
    expect(inTx).toEqual([true, true, true]);
    expect(rows()).toEqual(['a', 'b', 'c']);
  });

  it('fails a throwing write alone, half-done writes included, and commits the others', async () => {
    const { batch, insert, rows } = setup();
    const outcomes = await Promise.allSettled([
      batch.run(() => insert.run('a', 1)),
      batch.run(() => {
        insert.run('half', 2); // written, then the write fails: it must not stay
        throw new Error('refused');
      }),
      batch.run(() => insert.run('a', 3)), // primary key conflict
      batch.run(() => insert.run('c', 4)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(rows()).toEqual(['a', 'c']);
    expect(db.prepare('SELECT v FROM t WHERE k = ?').pluck().get('a')).toBe(1);
  });

  it('runs what is queued at once on flush (closing)', () => {
    const { batch, insert, rows } = setup();
    void batch.run(() => insert.run('x', 1));
    batch.flush();
    expect(rows()).toEqual(['x']);
  });
});
