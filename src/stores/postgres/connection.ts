/** Where the PostgreSQL store and bus get their connections: a pool passed in, or one we own. */
import { Pool, type QueryConfig, type QueryResult, type QueryResultRow } from 'pg';
import { quoteSchema } from './migrations.js';

/** Connection options shared by {@link PostgresTaskStore} and {@link PostgresEventBus}. */
export interface PostgresConnectionOptions {
  /** A pool the caller owns (and ends); takes precedence over `connectionString`. */
  pool?: Pool;
  /** `postgres://user@host:5432/db`: the store or bus creates its own pool and ends it on close. */
  connectionString?: string;
  /** Size of a pool created from `connectionString` (default 10). */
  maxConnections?: number;
  /** PostgreSQL schema holding the tables (default `a2a`); lowercase letters, digits and `_`. */
  schema?: string;
  /** Where connection problems are reported (default `console`; `null` for silence). */
  logger?: Pick<Console, 'warn' | 'error'> | null;
}

/** A resolved connection: the pool, whether we end it, the schema (raw and quoted). */
export interface Connection {
  readonly pool: Pool;
  readonly owned: boolean;
  readonly schema: string;
  readonly quoted: string;
  readonly logger: Pick<Console, 'warn' | 'error'> | undefined;
}

/** Resolves options (or a bare connection string) to a pool and a validated schema. */
export function connect(options: PostgresConnectionOptions | string): Connection {
  const opts = typeof options === 'string' ? { connectionString: options } : options;
  const schema = opts.schema ?? 'a2a';
  const quoted = quoteSchema(schema);
  const logger = opts.logger === null ? undefined : (opts.logger ?? console);
  if (opts.pool) return { pool: opts.pool, owned: false, schema, quoted, logger };
  if (!opts.connectionString) throw new Error('PostgreSQL: pass `pool` or `connectionString`');
  const pool = new Pool({
    connectionString: opts.connectionString,
    max: opts.maxConnections ?? 10,
    keepAlive: true,
  });
  // An idle client that loses its server emits 'error' on the pool; unhandled, it would end the
  // process. The pool drops that client by itself; the next query opens a new one.
  pool.on('error', (error) => logger?.warn('a2a-kit: idle PostgreSQL connection lost:', error));
  return { pool, owned: true, schema, quoted, logger };
}

/** Attempts of a read-only statement whose connection the server ended ({@link readQuery}). */
const READ_ATTEMPTS = 3;

/**
 * Runs a read-only statement, again on another connection (at most {@link READ_ATTEMPTS} in
 * all) when the server ended the one the pool handed out: an idle connection terminated before
 * the pool noticed (SQLSTATE 57P01–57P03, or the socket closed). Reads only: a write that may
 * have committed is never sent twice.
 */
export async function readQuery<R extends QueryResultRow>(
  pool: Pool,
  query: QueryConfig,
): Promise<QueryResult<R>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query<R>(query);
    } catch (error) {
      if (attempt >= READ_ATTEMPTS || !connectionLost(error)) throw error;
    }
  }
}

/** The server ended the connection (admin or crash shutdown, SQLSTATE 57P0x) or it closed. */
export function connectionLost(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^57P0[123]$/.test(code)) return true;
  return typeof message === 'string' && message.includes('Connection terminated');
}
