/**
 * Opens the store named by `--store` / `A2A_STORE` (`a2a serve`, `npm start`): a SQLite file
 * (the default, `.a2a/tasks.db`), `memory`, or a `postgres://` URL with the LISTEN/NOTIFY bus;
 * `--bus nats://…` (`A2A_BUS`) puts the NATS JetStream bus in place of the store's own.
 * The drivers are optional peer dependencies, loaded only when asked for, so a missing one
 * gives a message that says what to install instead of a crash at startup.
 */
import { isMissingPackage, MissingDependencyError } from '../core/missing-dependency.js';
import type { OwnershipOptions } from '../server/ownership.js';
import type { SqliteTaskStore } from '../stores/sqlite/task-store.js';
import type * as NatsStores from '../stores/nats/index.js';
import type { EventBus, LogSource, TaskStore } from '../stores/types.js';

/** The server options a store comes with (as in `A2AServerOptions`). */
export interface StoreServerOptions {
  store?: TaskStore;
  bus?: EventBus;
  ownership?: OwnershipOptions | false;
}

/** The store of `a2a serve` when none is named. */
export const DEFAULT_STORE_PATH = '.a2a/tasks.db';

/** Settings beside the store's name (from the environment, see {@link storeSettingsFromEnv}). */
export interface StoreSettings {
  /** Finished tasks are deleted this long after they finished (default: 7 days). */
  retentionMs?: number | undefined;
  /** PostgreSQL schema (default `a2a`). */
  schema?: string | undefined;
  /**
   * The event bus by URL (`--bus`, `A2A_BUS`): `nats://host:port` for the NATS JetStream bus
   * (instances sharing PostgreSQL fan out over NATS instead of LISTEN/NOTIFY). Default: the
   * store's own (LISTEN/NOTIFY for PostgreSQL, in-process otherwise).
   */
  bus?: string | undefined;
  /** Task ownership leases (PostgreSQL and SQLite). */
  ownership?: OwnershipOptions | undefined;
  logger?: Pick<Console, 'warn' | 'error'> | null | undefined;
}

/** What {@link openStore} opened. */
export interface OpenedStore {
  readonly kind: 'memory' | 'sqlite' | 'postgres';
  /** Where tasks live, for banners: `SQLite file .a2a/tasks.db`. */
  readonly description: string;
  /** `store`, `bus` and `ownership` for `serve()` / `new A2AServer()` (memory: the defaults). */
  readonly serverOptions: StoreServerOptions;
  /**
   * True when this process is the only live one using the store (a SQLite file nobody else
   * had open): once listening, the server may take over at once what a previous run left
   * running (`server.ownership.takeOverAll()`) instead of after the lease timeout.
   */
  readonly exclusive: boolean;
  /** Closes what was opened (when the server that would have closed it never started). */
  close(): Promise<void>;
}

const WEEK_MS = 7 * 24 * 3600_000;

/** Reads `A2A_RETENTION_MS`, `A2A_PG_SCHEMA`, `A2A_BUS`, `A2A_LEASE_TTL_MS` and `A2A_INSTANCE_ID`. */
export function storeSettingsFromEnv(env: Record<string, string | undefined>): StoreSettings {
  const ms = (name: string): number | undefined => {
    const value = env[name];
    if (value === undefined || value === '') return undefined;
    if (!/^\d+$/.test(value)) throw new Error(`${name} must be a number of milliseconds`);
    return Number(value);
  };
  const leaseTtlMs = ms('A2A_LEASE_TTL_MS');
  const instanceId = env['A2A_INSTANCE_ID'] || undefined;
  return {
    retentionMs: ms('A2A_RETENTION_MS'),
    schema: env['A2A_PG_SCHEMA'] || undefined,
    bus: env['A2A_BUS'] || undefined,
    ownership: {
      ...(leaseTtlMs !== undefined ? { leaseTtlMs } : {}),
      ...(instanceId !== undefined ? { instanceId } : {}),
    },
  };
}

/** Opens the store `spec` names (`memory`, `postgres://…`, `sqlite:<path>` or a file path). */
export async function openStore(
  spec: string | undefined,
  settings: StoreSettings = {},
): Promise<OpenedStore> {
  const opened = await openTaskStore(spec, settings);
  if (settings.bus === undefined || settings.bus === '') return opened;
  return withBus(opened, settings.bus, settings);
}

/** Replaces the bus of `opened` with the one `url` names (`nats://…`). */
async function withBus(
  opened: OpenedStore,
  url: string,
  settings: StoreSettings,
): Promise<OpenedStore> {
  if (!/^nats:\/\//i.test(url)) {
    await opened.close();
    throw new Error(`unknown event bus "${url}": use nats://host:port (or leave it out)`);
  }
  let nats: typeof NatsStores;
  try {
    nats = await load('@nats-io/transport-node', () => import('../stores/nats/index.js'));
  } catch (error) {
    await opened.close();
    throw error;
  }
  const store = opened.serverOptions.store;
  const source = store && isLogSource(store) ? { store } : {};
  let bus: EventBus;
  try {
    // `nats://host:port/<prefix>`: the path is the subject prefix (default `a2a`).
    const parsed = /^(nats:\/\/[^/]+)(?:\/([^?#]*))?$/i.exec(url);
    const prefix = parsed?.[2]?.replace(/\/+$/, '') || undefined;
    bus = await nats.NatsEventBus.open({
      servers: parsed?.[1] ?? url,
      ...(prefix !== undefined ? { prefix } : {}),
      ...source,
      ...(settings.logger !== undefined ? { logger: settings.logger } : {}),
    });
  } catch (error) {
    await opened.close();
    throw error;
  }
  const previous = opened.serverOptions.bus;
  await previous?.close();
  return {
    ...opened,
    description: `${opened.description}, events over NATS ${redact(url)}`,
    serverOptions: { ...opened.serverOptions, bus },
    close: async () => {
      await opened.close();
      await bus.close();
    },
  };
}

function isLogSource(store: TaskStore): store is TaskStore & LogSource {
  const s = store as Partial<LogSource>;
  return typeof s.entryAt === 'function' && typeof s.lastEntry === 'function';
}

async function openTaskStore(
  spec: string | undefined,
  settings: StoreSettings,
): Promise<OpenedStore> {
  const name = spec === undefined || spec === '' ? DEFAULT_STORE_PATH : spec;
  const retentionMs = settings.retentionMs ?? WEEK_MS;
  const ownership = settings.ownership ?? {};
  const logger = settings.logger !== undefined ? { logger: settings.logger } : {};
  if (name === 'memory') {
    const description = 'memory (tasks are gone when the server stops)';
    const close = async () => undefined;
    return { kind: 'memory', description, serverOptions: {}, exclusive: false, close };
  }
  if (/^postgres(ql)?:\/\//i.test(name)) {
    const pg = await load('pg', () => import('../stores/postgres/index.js'));
    const store = await pg.PostgresTaskStore.open({
      connectionString: name,
      ...(settings.schema !== undefined ? { schema: settings.schema } : {}),
      retention: { finishedTtlMs: retentionMs },
      ...logger,
    });
    const bus = new pg.PostgresEventBus({
      pool: store.pool,
      schema: store.schema,
      store,
      ...logger,
    });
    const close = async () => {
      await store.close();
      await bus.close();
    };
    return {
      kind: 'postgres',
      description: `PostgreSQL ${redact(name)} (schema ${store.schema})`,
      serverOptions: { store, bus, ownership },
      exclusive: false,
      close,
    };
  }
  const path = name.startsWith('sqlite:') ? name.slice('sqlite:'.length) : name;
  const sqlite = await load('better-sqlite3', () => import('../stores/sqlite/index.js'));
  let store: SqliteTaskStore;
  try {
    store = new sqlite.SqliteTaskStore({ path, ttlMs: retentionMs });
  } catch (error) {
    throw missingDriver('better-sqlite3', error);
  }
  return {
    kind: 'sqlite',
    description: `SQLite file ${path}`,
    serverOptions: { store, ownership },
    // When another live process uses the file, its running tasks are its own.
    exclusive: store.openedAlone,
    close: () => store.close(),
  };
}

/** Imports a store module, turning a missing optional driver into an actionable message. */
async function load<T>(driver: string, importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    throw missingDriver(driver, error);
  }
}

/** The error to show for a failed driver import: what to install when it is missing. */
export function missingDriver(driver: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const missing =
    isMissingPackage(error, driver) ||
    (driver.startsWith('@nats-io/') && isMissingPackage(error, '@nats-io/jetstream')) ||
    /could not locate the bindings file|was compiled against a different node/i.test(message);
  if (!missing) return error instanceof Error ? error : new Error(message);
  return new MissingDependencyError(
    driver === 'pg'
      ? { packages: ['pg'], feature: 'The PostgreSQL store', install: 'npm install pg' }
      : driver.startsWith('@nats-io/')
        ? {
            packages: ['@nats-io/transport-node', '@nats-io/jetstream'],
            feature: 'The NATS event bus',
            install: 'npm install @nats-io/transport-node @nats-io/jetstream',
            instead: 'or leave out --bus',
          }
        : {
            packages: ['better-sqlite3'],
            feature: 'The SQLite store',
            install: 'npm install better-sqlite3@12',
            instead: 'or keep tasks in memory: --store memory',
          },
    error,
  );
}

/** A connection URL without its password, for logs and banners. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}
