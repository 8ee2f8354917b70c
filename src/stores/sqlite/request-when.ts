/**
 * Request-When records in SQLite (table `request_when`, schema version 8): the delegating
 * process's pending requests survive its restart (docs/extensions/delegation.md §3).
 */
import type Database from 'better-sqlite3';
import type { RequestWhenRecord, RequestWhenStore } from '../request-when-types.js';
import { openSqlite, type SqliteLocation } from './connection.js';

/** A RequestWhenStore in a SQLite file (the same file as the task store may be used). */
export class SqliteRequestWhenStore implements RequestWhenStore {
  readonly db: Database.Database;
  private readonly owned: boolean;
  private readonly upsert: Database.Statement;
  private readonly selectPending: Database.Statement;
  private readonly selectOne: Database.Statement;
  private readonly claimOne: Database.Statement;

  constructor(location: SqliteLocation) {
    ({ db: this.db, owned: this.owned } = openSqlite(location));
    this.upsert = this.db.prepare(
      `INSERT INTO request_when (id, status, record, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, record = excluded.record`,
    );
    this.selectPending = this.db.prepare(
      `SELECT record FROM request_when WHERE status IN ('waiting', 'sending') ORDER BY created_at, id`,
    );
    this.selectOne = this.db.prepare('SELECT record FROM request_when WHERE id = ?');
    this.claimOne = this.db.prepare(
      `UPDATE request_when SET status = 'sending', record = json_set(record, '$.status', 'sending')
       WHERE id = ? AND status = 'waiting'`,
    );
  }

  put(record: RequestWhenRecord): Promise<void> {
    this.upsert.run(record.id, record.status, JSON.stringify(record), Date.now());
    return Promise.resolve();
  }

  pending(): Promise<RequestWhenRecord[]> {
    const rows = this.selectPending.all() as { record: string }[];
    return Promise.resolve(rows.map((r) => JSON.parse(r.record) as RequestWhenRecord));
  }

  get(id: string): Promise<RequestWhenRecord | undefined> {
    const row = this.selectOne.get(id) as { record: string } | undefined;
    return Promise.resolve(row ? (JSON.parse(row.record) as RequestWhenRecord) : undefined);
  }

  claim(id: string): Promise<boolean> {
    return Promise.resolve(this.claimOne.run(id).changes === 1);
  }

  seen(id: string, lastEventId: string): Promise<void> {
    this.db
      .prepare(`UPDATE request_when SET record = json_set(record, '$.lastEventId', ?) WHERE id = ?`)
      .run(lastEventId, id);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.owned) this.db.close();
    return Promise.resolve();
  }
}
