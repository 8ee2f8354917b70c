/**
 * The options of A2AServer (a2a-server.ts): what it is given, the memory bounds with their
 * defaults, and the reading of the idempotency option.
 */
import type { AuditSigner } from '../security/audit-head.js';
import type { Logger } from '../core/logger.js';
import { COMPAT_VERSIONS, type CompatVersion } from '../core/service.js';
import type { EventBus, PushConfigStore, TaskStore } from '../stores/types.js';
import type { Agent } from './agent.js';
import { DEFAULT_IDEMPOTENCY_WINDOW_MS, type IdempotencyOptions } from './intake.js';
import type { InterruptedOptions } from './interrupted.js';
import type { OwnershipOptions } from './ownership.js';
import type { PushNotifier } from './push-configs.js';

/** Options of {@link A2AServer}. */
export interface A2AServerOptions {
  agent: Agent;
  /** Where tasks live; default an in-memory store with retention. */
  store?: TaskStore;
  /** Live fan-out; default in-process. */
  bus?: EventBus;
  /**
   * Push notifications: the notifier that delivers them (see `a2a-kit/push`) and where configs
   * are kept (default: the task store, when it keeps push configs). Sets
   * `capabilities.pushNotifications`.
   */
  push?: { notifier: PushNotifier; configs?: PushConfigStore } | undefined;
  /** Show the agent's own error messages in FAILED statuses (default false). */
  exposeErrors?: boolean;
  /** Where agent failures are logged (default `console`; `null` for silence). */
  logger?: Pick<Console, 'warn' | 'error'> | null;
  /**
   * Structured log of task transitions: one `info` line per state a task enters (ids, state,
   * seq; never content), pino or console as is. Pair it with `requestLog(log)` in `middleware`
   * for one line per request (docs/observability.md).
   */
  log?: Logger | undefined;
  /**
   * Task ownership for instances sharing a store: leases with heartbeats, takeover of the tasks
   * of an instance that stopped (see `Agent.recovery`), CancelTask from any instance. On by
   * default for the stores other processes can share (SQLite, PostgreSQL); for a
   * MemoryTaskStore (several servers in one process) only when set; `false` turns it off.
   */
  ownership?: OwnershipOptions | false;
  /**
   * Retried sends (spec §3.3.1): a SendMessage or SendStreamingMessage that repeats an earlier
   * request of the same caller — same `messageId` and the same message (parts, taskId, contextId,
   * metadata, every field) — while the first attempt still runs, or within `windowMs` after it,
   * gets the first attempt's task instead of running the agent again; concurrent copies share one
   * attempt. Anything else is processed as the new message it is, even when it reuses a
   * messageId. The store's message index keeps where each message is recorded (its task's
   * history entry) with its time, so this holds across restarts and instances sharing a durable
   * store (a stateless Message reply is kept only in this process). Content is compared only when
   * the messageId is found: a fresh messageId costs no comparison.
   *
   * The trade-off of `windowMs`: within it an identical message sent on purpose (same messageId)
   * is taken for a retry; a retry that comes after the first attempt settled and later than the
   * window runs the agent again. Default on with `windowMs: 0` (retries join a running attempt
   * only); `{ windowMs: 600_000 }` also answers late retries of finished tasks for 10 minutes;
   * `false` turns it off (every message runs the agent, nothing is indexed).
   */
  idempotency?: false | { windowMs?: number };
  /**
   * Serve the A2A 1.1 draft's task generations (spec dev-1.1 §3.2.7; docs/generations.md): new
   * tasks carry `generation` (1, then +1 per state transition or artifact change, stamped on
   * each update), and SendMessage honours `configuration.ifGenerationMatch`, refusing a stale one
   * with TASK_GENERATION_MISMATCH. Default false: 1.0 behaviour, `ifGenerationMatch` ignored.
   */
  generations?: boolean;
  /** Memory bounds per stream reader and per ListTasks page (defaults in {@link MemoryLimits}). */
  memory?: MemoryLimits;
  /**
   * Abandoned tasks (spec §3.1: INPUT_REQUIRED and AUTH_REQUIRED wait for the client). A task
   * that waits unchanged for `ttlMs` (default 24 h) is CANCELED with the status message
   * "Canceled: no answer within 24 h (A2AServer option interrupted.ttlMs)"; the store's clock
   * decides (its `interrupted` facet), so this holds across restarts, and of several instances
   * sharing a store one writes the cancel. One caller (tenant and principal) may hold at most
   * `maxPerCaller` interrupted tasks (default 1,000): past it a message that would start a new
   * task (no `taskId`) is refused with RATE_LIMITED naming the limit, while messages answering
   * the caller's open tasks are still accepted. The cap is checked when the message arrives, so
   * messages sent at the same moment may each start a task. `false` turns both off.
   */
  interrupted?: InterruptedOptions | false;
  /**
   * Older protocol versions served next to 1.0: `['0.3']` serves A2A 0.3 JSON-RPC and HTTP+JSON
   * at the 1.0 URLs (requests without `A2A-Version`), the 0.3 gRPC service `a2a.v1.A2AService`
   * next to `lf.a2a.v1.A2AService` on the gRPC port, lists 0.3 entries in the card after the 1.0
   * ones, and answers card requests without `A2A-Version` with the hybrid card
   * (docs/interop.md). The HTTP handler, `serveGrpc()` and `serve()` built on this server follow
   * it. Default none.
   */
  compat?: readonly CompatVersion[] | undefined;
  /**
   * Tamper-evident task history (docs/trust.md): every event of a task created from now on is
   * linked into the task's SHA-256 hash chain, kept by the store with the event, and GetTask with
   * the extension `urn:a2a-kit:extension:audit:v1` activated returns the chain (what
   * `a2a audit export` writes). `signer` signs the chain's head (serve() uses its `signCard` key
   * when none is given). Costs one RFC 8785 form and one SHA-256 per event. Default off.
   */
  audit?: boolean | AuditOptions | undefined;
}

/** Options of {@link A2AServerOptions.audit}. */
export interface AuditOptions {
  /** Signs the head of exported chains (the server's card signing key). */
  signer?: AuditSigner | undefined;
}

/** What one reader or one response may hold (approximate JSON bytes). */
export interface MemoryLimits {
  /**
   * A stream reader that falls this far behind is paused: its buffered live events are dropped
   * and, when it reads again, it catches up from the store's log, in order, one page at a time
   * (no event is lost; a client that disconnects resumes with Last-Event-ID). Default 4 MiB.
   */
  streamBufferBytes?: number;
  /** One catch-up page read from the log for a stream. Default 4 MiB. */
  streamPageBytes?: number;
  /**
   * What one task may hold (history and artifacts, approximate JSON bytes), on every store: a
   * client message that would take a task past it is refused with INVALID_PARAMS saying so
   * (start a new task in the same context); an agent write that would is not recorded and the
   * task is FAILED with a status message naming this option. Default 64 MiB.
   */
  maxTaskBytes?: number;
  /**
   * One ListTasks page: past this many bytes of tasks the page ends early with a
   * `nextPageToken` for the rest (at least one task per page). Default 16 MiB.
   */
  listPageBytes?: number;
}

/** Default of `MemoryLimits.listPageBytes`. */
export const DEFAULT_LIST_PAGE_BYTES = 16 * 1024 * 1024;

/** The retry window of `A2AServerOptions.idempotency`, checked; false when off. */
export function idempotencyOf(option: A2AServerOptions['idempotency']): IdempotencyOptions | false {
  if (option === false) return false;
  const windowMs = option?.windowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;
  if (!Number.isFinite(windowMs) || windowMs < 0) {
    throw new Error(`idempotency.windowMs must be a non-negative number of ms, not ${windowMs}`);
  }
  return { windowMs };
}

/** The `compat` option, checked: a TypeError names a version that cannot be served. */
export function compatOf(option: readonly CompatVersion[] | undefined): readonly CompatVersion[] {
  for (const version of option ?? []) {
    if (!COMPAT_VERSIONS.includes(version)) {
      throw new TypeError(
        `compat: cannot serve protocol version ${JSON.stringify(version)}; ` +
          `the versions served next to 1.0 are ${COMPAT_VERSIONS.join(', ')}`,
      );
    }
  }
  return Object.freeze([...(option ?? [])]);
}
