/**
 * The SQLite schema, versioned with `PRAGMA user_version` and applied at open in one IMMEDIATE
 * transaction, so two processes opening the same new file cannot both migrate it. Migrations are
 * append-only: never edit a released one, add the next version.
 */
import type BetterSqlite3 from 'better-sqlite3';

/** One schema step: `version` is the user_version the database has once `sql` ran. */
export interface SqliteMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Every migration in order. */
export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: 'tasks, event log, message index',
    sql: `
      -- One small row per task: what ListTasks filters and sorts on and the optimistic seq. It is
      -- updated on every event, so it holds no JSON: SQLite rewrites a whole row on UPDATE.
      CREATE TABLE tasks (
        id           TEXT PRIMARY KEY,
        tenant       TEXT NOT NULL,
        owner        TEXT NOT NULL,
        context_id   TEXT NOT NULL,
        state        TEXT NOT NULL,
        status_ts    TEXT NOT NULL,
        finished     INTEGER NOT NULL,
        seq          INTEGER NOT NULL,
        snapshot_seq INTEGER NOT NULL,
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL
      );
      -- ListTasks: newest status first within a scope, optionally within a context or a state.
      CREATE INDEX tasks_by_status_ts ON tasks (tenant, owner, status_ts DESC, id DESC);
      CREATE INDEX tasks_by_context ON tasks (tenant, owner, context_id, status_ts DESC, id DESC);
      CREATE INDEX tasks_by_state ON tasks (tenant, owner, state, status_ts DESC, id DESC);
      -- Retention: finished tasks by last change.
      CREATE INDEX tasks_finished ON tasks (updated_at) WHERE finished = 1;

      -- The checkpoint a read replays the log onto: the task as of tasks.snapshot_seq.
      CREATE TABLE snapshots (
        task_id  TEXT PRIMARY KEY,
        snapshot TEXT NOT NULL
      );

      -- The append-only log: seq 1 is the creation snapshot {"task": ...}.
      CREATE TABLE events (
        task_id TEXT NOT NULL,
        seq     INTEGER NOT NULL,
        event   TEXT NOT NULL,
        PRIMARY KEY (task_id, seq)
      );

      -- Retried sends: the task a user message created or continued, per scope.
      CREATE TABLE messages (
        tenant     TEXT NOT NULL,
        owner      TEXT NOT NULL,
        message_id TEXT NOT NULL,
        task_id    TEXT NOT NULL,
        PRIMARY KEY (tenant, owner, message_id)
      ) WITHOUT ROWID;
      CREATE INDEX messages_by_task ON messages (task_id);
    `,
  },
  {
    version: 2,
    name: 'push notification configs and outbox',
    sql: `
      -- Push configs live beside their task and are deleted with it (delete, purge).
      CREATE TABLE push_configs (
        task_id TEXT NOT NULL,
        id      TEXT NOT NULL,
        tenant  TEXT NOT NULL,
        owner   TEXT NOT NULL,
        config  TEXT NOT NULL,
        PRIMARY KEY (task_id, id)
      ) WITHOUT ROWID;

      -- The durable outbox: one row per (task, config, seq) until delivered; given-up rows stay
      -- as state 'failed' until their task goes. Times are milliseconds since the epoch.
      CREATE TABLE push_outbox (
        id              TEXT PRIMARY KEY,
        task_id         TEXT NOT NULL,
        config_id       TEXT NOT NULL,
        tenant          TEXT NOT NULL,
        owner           TEXT NOT NULL,
        seq             INTEGER NOT NULL,
        body            TEXT NOT NULL,
        attempt         INTEGER NOT NULL DEFAULT 0,
        state           TEXT NOT NULL DEFAULT 'pending',
        next_attempt_at INTEGER NOT NULL,
        lease_until     INTEGER NOT NULL DEFAULT 0,
        claim           TEXT,
        last_error      TEXT,
        UNIQUE (task_id, config_id, seq)
      );
      -- Claiming scans due pending rows; the UNIQUE index finds an older pending row of a pair.
      CREATE INDEX push_outbox_due ON push_outbox (next_attempt_at) WHERE state = 'pending';
    `,
  },
  {
    version: 3,
    name: 'task ownership leases',
    sql: `
      -- The instance running a task and until when (ms since the epoch); NULL when none. Two
      -- small scalars, so the per-event UPDATE of the row stays small.
      ALTER TABLE tasks ADD COLUMN lease_owner TEXT;
      ALTER TABLE tasks ADD COLUMN lease_expires_at INTEGER;
      -- Recovery scans only unfinished tasks (few, whatever the number of finished ones). Keyed
      -- by id, so claims and heartbeats, which change the lease columns only, touch no index.
      CREATE INDEX tasks_unfinished ON tasks (id) WHERE finished = 0;
    `,
  },
  {
    version: 4,
    name: 'message fingerprints',
    sql: `
      -- A retry is the same message again, recently: what the message index keeps of its content
      -- (a hash the server computes) and when it was indexed (ms since the epoch). Rows indexed
      -- before this version have neither and are never taken for a retry.
      ALTER TABLE messages ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
      ALTER TABLE messages ADD COLUMN indexed_at INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 5,
    name: 'trace context of push deliveries',
    sql: `
      -- The W3C trace context (JSON object) of the write that enqueued a delivery, so the
      -- webhook request continues the task's trace after a restart too; NULL when none.
      ALTER TABLE push_outbox ADD COLUMN trace TEXT;
    `,
  },
  {
    version: 6,
    name: 'audit chain hash of events',
    sql: `
      -- The hash chain of the audit trail (src/security/audit-chain.ts): each event's SHA-256 over
      -- the previous hash and its RFC 8785 form, written with the event; NULL when audit was off.
      ALTER TABLE events ADD COLUMN hash TEXT;
      `,
  },
  {
    version: 8,
    name: 'request-when records',
    sql: `
      -- Pending Request-When records of a delegating process (src/stores/sqlite/request-when.ts):
      -- the record as JSON, its status indexed for the resume after a restart.
      CREATE TABLE request_when (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        record TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX request_when_pending ON request_when (status, created_at);
    `,
  },
  {
    version: 9,
    name: 'one log row per write',
    sql: `
      -- No change to the tables: from this version an events row may hold the events of one
      -- write, one JSON text per line, keyed by the last one's seq (src/stores/sqlite/event-rows.ts).
      -- Rows written before hold one event each and read the same. The version keeps an older
      -- a2a-kit, which would read such a row as one event, from opening the file.
    `,
  },
];

/** The schema version this code writes. */
export const SQLITE_SCHEMA_VERSION = SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Brings the database to {@link SQLITE_SCHEMA_VERSION}; returns the version it found. Refuses a
 * database written by a newer a2a-kit rather than guessing at its schema.
 */
export function migrateSqlite(db: BetterSqlite3.Database): number {
  const run = db.transaction(() => {
    const found = db.pragma('user_version', { simple: true });
    const current = typeof found === 'number' ? found : 0;
    if (current > SQLITE_SCHEMA_VERSION) {
      throw new Error(
        `the database has schema version ${current}, newer than this a2a-kit (${SQLITE_SCHEMA_VERSION}): upgrade a2a-kit`,
      );
    }
    for (const migration of SQLITE_MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }
    return current;
  });
  return run.immediate();
}
