/**
 * Request-When records in PostgreSQL (table `request_when`, schema version 8): the delegating
 * process's pending requests survive its restart (docs/extensions/delegation.md §3); `claim` is
 * one conditional UPDATE, so two resumed processes send a record at most once between them.
 */
import type { RequestWhenRecord, RequestWhenStore } from '../request-when-types.js';
import { connect, type Connection, type PostgresConnectionOptions } from './connection.js';
import { migrate } from './migrations.js';

/** Options of {@link PostgresRequestWhenStore}. */
export interface PostgresRequestWhenStoreOptions extends PostgresConnectionOptions {
  /** Apply pending migrations at open (default true). */
  migrate?: boolean;
}

/** A RequestWhenStore in PostgreSQL (the task store's schema may be shared). */
export class PostgresRequestWhenStore implements RequestWhenStore {
  private constructor(private readonly conn: Connection) {}

  /** Connects (and migrates, unless `migrate: false`). */
  static async open(
    options: PostgresRequestWhenStoreOptions | string,
  ): Promise<PostgresRequestWhenStore> {
    const conn = connect(options);
    const migrateFirst = typeof options === 'string' || options.migrate !== false;
    try {
      if (migrateFirst) await migrate(conn.pool, conn.schema);
    } catch (error) {
      if (conn.owned) await conn.pool.end();
      throw error;
    }
    return new PostgresRequestWhenStore(conn);
  }

  private get table(): string {
    return `${this.conn.quoted}.request_when`;
  }

  async put(record: RequestWhenRecord): Promise<void> {
    await this.conn.pool.query(
      `INSERT INTO ${this.table} (id, status, record) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, record = excluded.record`,
      [record.id, record.status, JSON.stringify(record)],
    );
  }

  async pending(): Promise<RequestWhenRecord[]> {
    const { rows } = await this.conn.pool.query<{ record: RequestWhenRecord }>(
      `SELECT record FROM ${this.table} WHERE status IN ('waiting', 'sending')
       ORDER BY created_at, id`,
    );
    return rows.map((r) => r.record);
  }

  async get(id: string): Promise<RequestWhenRecord | undefined> {
    const { rows } = await this.conn.pool.query<{ record: RequestWhenRecord }>(
      `SELECT record FROM ${this.table} WHERE id = $1`,
      [id],
    );
    return rows[0]?.record;
  }

  async claim(id: string): Promise<boolean> {
    const { rowCount } = await this.conn.pool.query(
      `UPDATE ${this.table} SET status = 'sending',
         record = jsonb_set(record, '{status}', '"sending"')
       WHERE id = $1 AND status = 'waiting'`,
      [id],
    );
    return rowCount === 1;
  }

  async seen(id: string, lastEventId: string): Promise<void> {
    await this.conn.pool.query(
      `UPDATE ${this.table} SET record = jsonb_set(record, '{lastEventId}', to_jsonb($2::text))
       WHERE id = $1`,
      [id, lastEventId],
    );
  }

  async close(): Promise<void> {
    if (this.conn.owned) await this.conn.pool.end();
  }
}
