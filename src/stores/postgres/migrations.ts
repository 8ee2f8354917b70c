/**
 * Versioned schema migrations of the PostgreSQL store. They run at `PostgresTaskStore.open()` in
 * one transaction under an advisory lock, so several instances starting at once apply each
 * migration exactly once; DDL is transactional in PostgreSQL, so a failed migration leaves nothing.
 */
import type { Pool } from 'pg';

/**
 * The interrupted states (spec §3.1) as the partial index tasks_interrupted (version 9) spells
 * them: a query uses that index only when its condition is this one.
 */
export const INTERRUPTED = `state IN ('TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED')`;

/** One schema change; `up` receives the quoted schema name. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly up: (schema: string) => string;
}

/** Every migration, in version order. Never edit a released one: append a new version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tasks, event log, message index',
    // Texts compared or sorted use COLLATE "C" so the order is the byte order paging.ts uses.
    // Bodies are `json`, not `jsonb`: stored verbatim, cheaper to write, never queried into, and
    // `jsonb` rejects the \u0000 escape that user text may legitimately contain.
    // fillfactor leaves room for HOT updates: an artifact event changes no indexed column.
    // finished_at is set once, when the task reaches a terminal state (retention reads it).
    up: (s) => `
      CREATE TABLE ${s}.tasks (
        id text COLLATE "C" PRIMARY KEY,
        rid bigint GENERATED ALWAYS AS IDENTITY,
        tenant text NOT NULL,
        owner text NOT NULL,
        context_id text NOT NULL,
        state text NOT NULL,
        status_ts text COLLATE "C" NOT NULL,
        seq integer NOT NULL,
        base json NOT NULL,
        base_seq integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      ) WITH (fillfactor = 80);
      CREATE INDEX tasks_list ON ${s}.tasks (tenant, owner, status_ts DESC, id DESC);
      CREATE INDEX tasks_context ON ${s}.tasks (tenant, owner, context_id, status_ts DESC, id DESC);
      CREATE INDEX tasks_finished ON ${s}.tasks (finished_at) WHERE finished_at IS NOT NULL;
      CREATE TABLE ${s}.events (
        task_id text COLLATE "C" NOT NULL REFERENCES ${s}.tasks (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        body json NOT NULL,
        PRIMARY KEY (task_id, seq)
      );
      CREATE TABLE ${s}.messages (
        tenant text NOT NULL,
        owner text NOT NULL,
        message_id text NOT NULL,
        task_id text COLLATE "C" NOT NULL REFERENCES ${s}.tasks (id) ON DELETE CASCADE,
        PRIMARY KEY (tenant, owner, message_id)
      );
      CREATE INDEX messages_task ON ${s}.messages (task_id);
    `,
  },
  {
    version: 2,
    name: 'push notification configs and outbox',
    // Configs go with their task, deliveries with their config (ON DELETE CASCADE): deleting a
    // config stops its deliveries (spec §3.1.10), deleting or purging a task drops both.
    // Times come from the database clock, so instances with skewed clocks agree on leases.
    up: (s) => `
      CREATE TABLE ${s}.push_configs (
        task_id text COLLATE "C" NOT NULL REFERENCES ${s}.tasks (id) ON DELETE CASCADE,
        id text COLLATE "C" NOT NULL,
        tenant text NOT NULL,
        owner text NOT NULL,
        config json NOT NULL,
        PRIMARY KEY (task_id, id)
      );
      CREATE TABLE ${s}.push_outbox (
        id text PRIMARY KEY,
        task_id text COLLATE "C" NOT NULL,
        config_id text COLLATE "C" NOT NULL,
        tenant text NOT NULL,
        owner text NOT NULL,
        seq integer NOT NULL,
        body text NOT NULL,
        attempt integer NOT NULL DEFAULT 0,
        state text NOT NULL DEFAULT 'pending',
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz,
        claim text,
        last_error text,
        UNIQUE (task_id, config_id, seq),
        FOREIGN KEY (task_id, config_id) REFERENCES ${s}.push_configs (task_id, id)
          ON DELETE CASCADE
      );
      CREATE INDEX push_outbox_due ON ${s}.push_outbox (next_attempt_at) WHERE state = 'pending';
    `,
  },
  {
    version: 3,
    name: 'task ownership leases',
    // The instance running a task and until when, on the database clock; NULL when none.
    // Recovery scans the partial index of unfinished tasks, whatever the number of finished ones.
    up: (s) => `
      ALTER TABLE ${s}.tasks ADD COLUMN lease_owner text, ADD COLUMN lease_expires_at timestamptz;
      CREATE INDEX tasks_unfinished ON ${s}.tasks (lease_expires_at) WHERE finished_at IS NULL;
    `,
  },
  {
    version: 4,
    name: 'message fingerprints',
    // A retry is the same message again, recently: what the message index keeps of its content
    // (a hash the server computes) and when it was indexed, on the database clock. Rows indexed
    // before this version have no fingerprint and are never taken for a retry.
    up: (s) => `
      ALTER TABLE ${s}.messages ADD COLUMN fingerprint text NOT NULL DEFAULT '',
        ADD COLUMN indexed_at timestamptz NOT NULL DEFAULT now();
    `,
  },
  {
    version: 5,
    name: 'trace context of push deliveries',
    // The W3C trace context (JSON object) of the write that enqueued a delivery, so the webhook
    // request continues the task's trace, whichever instance sends it; NULL when none.
    up: (s) => `ALTER TABLE ${s}.push_outbox ADD COLUMN trace text;`,
  },
  {
    version: 6,
    name: 'audit chain hash of events',
    // The hash chain of the audit trail (src/security/audit-chain.ts): each event's SHA-256 over the
    // previous hash and its RFC 8785 form, written with the event; NULL when audit was off.
    up: (s) => `ALTER TABLE ${s}.events ADD COLUMN hash text;`,
  },
  {
    version: 8,
    name: 'request-when records',
    // Pending Request-When records of a delegating process (src/stores/postgres/request-when.ts).
    up: (s) => `
      CREATE TABLE ${s}.request_when (
        id text PRIMARY KEY,
        status text NOT NULL,
        record jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX request_when_pending ON ${s}.request_when (status, created_at);
    `,
  },
  {
    version: 9,
    name: 'interrupted tasks per caller',
    // The per-caller cap on interrupted tasks counts them on every new task: a partial index
    // holds only the interrupted ones, so the count does not grow with the finished tasks.
    up: (s) => `
      CREATE INDEX tasks_interrupted ON ${s}.tasks (tenant, owner) WHERE ${INTERRUPTED};
    `,
  },
];

/** The schema version this code expects. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
// First key of pg_advisory_xact_lock(int, int): "a2a" in ASCII, so our locks are recognizable.
const LOCK_CLASS = 0x613261;

/**
 * Checks a schema name (it is interpolated into SQL as an identifier, never a value) and returns
 * it quoted. Lowercase letters, digits and `_`, at most 56 characters so `<schema>_events` fits
 * PostgreSQL's 63-byte identifiers.
 */
export function quoteSchema(schema: string): string {
  if (!IDENTIFIER.test(schema) || schema.length > 56) {
    throw new Error(
      `invalid PostgreSQL schema name ${JSON.stringify(schema)}: use lowercase letters, digits and _ (at most 56)`,
    );
  }
  return `"${schema}"`;
}

/**
 * Brings `schema` to {@link SCHEMA_VERSION}; returns the version found before. Throws when the
 * database was migrated by a newer a2a-kit (this code would not know its tables).
 */
export async function migrate(pool: Pool, schema: string): Promise<number> {
  const s = quoteSchema(schema);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Serializes concurrent starts: the second instance waits, then finds nothing left to do.
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number }>(
      `SELECT coalesce(max(version), 0)::int AS version FROM ${s}.schema_migrations`,
    );
    const found = rows[0]?.version ?? 0;
    if (found > SCHEMA_VERSION) {
      throw new Error(
        `PostgreSQL schema ${schema} is at version ${found}, newer than this a2a-kit (${SCHEMA_VERSION}): upgrade a2a-kit`,
      );
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= found) continue;
      await client.query(migration.up(s));
      await client.query(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
    }
    await client.query('COMMIT');
    return found;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
