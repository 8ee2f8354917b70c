/**
 * A TaskStore (and lease store) wrapper that fails the calls a test chooses, the way a database
 * fails when its connection drops: the call rejects with a plain Error and, for an append, writes
 * nothing (or, with `after: true`, writes and then rejects, like a commit whose reply was lost).
 */
import type {
  AppendOptions,
  EventBus,
  LeaseStore,
  LogEntry,
  Scope,
  StoreFacets,
  TaskStore,
} from '../../src/stores/types.js';
import type { StreamResponse, Task } from '../../src/core/schemas/index.js';

type StoreCall = 'create' | 'append' | 'get' | 'claim' | 'renew' | 'release' | 'publish';

interface Fault {
  readonly call: StoreCall;
  /** Which calls fail; default every one. */
  readonly when: (args: readonly unknown[]) => boolean;
  /** How many more calls fail. */
  times: number;
  /** Run the call, then reject (the write happened, its acknowledgement was lost). */
  readonly after: boolean;
}

/** The error a dropped database connection gives (not an A2AError, not a ConcurrencyError). */
export class ConnectionLost extends Error {
  override readonly name = 'ConnectionLost';
  constructor(call: string) {
    super(`Connection terminated unexpectedly (${call})`);
  }
}

/** Plans faults on a store, its leases and a bus. */
export class FaultPlan {
  private readonly faults: Fault[] = [];
  /** Calls that failed, in order. */
  readonly failed: string[] = [];

  /** Makes the next `times` matching calls fail. */
  fail(
    call: StoreCall,
    options: { times?: number; when?: (args: readonly unknown[]) => boolean; after?: boolean } = {},
  ): this {
    this.faults.push({
      call,
      when: options.when ?? (() => true),
      times: options.times ?? 1,
      after: options.after ?? false,
    });
    return this;
  }

  /** Runs `run` unless a fault applies. */
  async apply<T>(call: StoreCall, args: readonly unknown[], run: () => T | Promise<T>): Promise<T> {
    const fault = this.faults.find((f) => f.call === call && f.times > 0 && f.when(args));
    if (!fault) return run();
    fault.times--;
    this.failed.push(call);
    if (fault.after) await run();
    throw new ConnectionLost(call);
  }
}

/** A task store whose calls fail as planned; its facets are the inner store's, leases wrapped. */
export function faultyStore(inner: TaskStore, plan: FaultPlan): TaskStore {
  const facets = inner.facets;
  const leases = facets?.leases && faultyLeases(facets.leases, plan);
  const wrapped: StoreFacets | undefined = facets && { ...facets, ...(leases ? { leases } : {}) };
  return {
    facets: wrapped,
    create: (scope: Scope, task: Task, options?: { messageId?: string }) =>
      plan.apply('create', [scope, task], () => inner.create(scope, task, options)),
    append: (
      scope: Scope,
      taskId: string,
      events: readonly StreamResponse[],
      expectedSeq: number,
      options?: AppendOptions,
    ) =>
      plan.apply('append', [taskId, events, expectedSeq], () =>
        inner.append(scope, taskId, events, expectedSeq, options),
      ),
    get: (scope, taskId) => plan.apply('get', [taskId], () => inner.get(scope, taskId)),
    events: (scope, taskId, afterSeq, limit) => inner.events(scope, taskId, afterSeq, limit),
    list: (scope, query) => inner.list(scope, query),
    findByMessageId: (scope, messageId) => inner.findByMessageId(scope, messageId),
    delete: (scope, taskId) => inner.delete(scope, taskId),
    close: () => inner.close(),
  };
}

function faultyLeases(inner: LeaseStore, plan: FaultPlan): LeaseStore {
  return {
    claim: (taskId, instanceId, ttlMs) =>
      plan.apply('claim', [taskId], () => inner.claim(taskId, instanceId, ttlMs)),
    renew: (instanceId, taskIds, ttlMs) =>
      plan.apply('renew', [taskIds], () => inner.renew(instanceId, taskIds, ttlMs)),
    release: (taskId, instanceId) =>
      plan.apply('release', [taskId], () => inner.release(taskId, instanceId)),
    expired: (limit, unclaimedMs) => inner.expired(limit, unclaimedMs),
    expireOthers: (instanceId) => inner.expireOthers(instanceId),
  };
}

/** A bus whose publishes fail as planned (asynchronously, like a NOTIFY on a lost connection). */
export function faultyBus(inner: EventBus, plan: FaultPlan): EventBus {
  return {
    publish: (tenant: string, taskId: string, entry: LogEntry) =>
      plan.apply('publish', [taskId, entry], async () => {
        await inner.publish(tenant, taskId, entry);
      }),
    subscribe: (tenant, taskId, listener) => inner.subscribe(tenant, taskId, listener),
    close: () => inner.close(),
  };
}
