/**
 * `a2a-kit/stores`: every storage plug-in contract (task store and its facets, event bus, push
 * configs, push outbox, leases, log source), the errors stores throw, and the in-memory store
 * and bus. Runtime-neutral. The durable stores have their own subpaths (`a2a-kit/stores/sqlite`,
 * `a2a-kit/stores/postgres`); every implementation runs the suites of `a2a-kit/testing`.
 */
export { ConcurrencyError, InvalidPageTokenError, StorageError } from './types.js';
export type {
  RequestWhenCondition,
  RequestWhenRecord,
  RequestWhenStore,
} from './request-when-types.js';
export type {
  IndexedMessage,
  MessageIndexing,
  CreateOptions,
  CreateWithOptions,
  GetOptions,
  AppendOptions,
  AppendPush,
  ClaimRef,
  ClaimedDelivery,
  DeliveryState,
  EventBus,
  IdleInterruptedTask,
  InterruptedTaskIndex,
  LeaseStore,
  LogEntry,
  TraceCarrier,
  LogListener,
  LogSource,
  NewDelivery,
  OrphanedTask,
  PushConfigStore,
  PushOutbox,
  Scope,
  StoreFacets,
  StoredDelivery,
  StoredPushConfig,
  TaskPage,
  TaskQuery,
  TaskRecord,
  TaskStore,
} from './types.js';
// What TaskStore's create/append/get/findByMessageId return: a value, or a promise of it.
export type { MaybePromise } from '../core/maybe-async.js';
export { MemoryTaskStore } from './memory/task-store.js';
export type { MemoryTaskStoreOptions } from './memory/task-store.js';
export { MemoryEventBus } from './memory/event-bus.js';
export { MemoryPushOutbox } from './memory/push-outbox.js';
export { MemoryRequestWhenStore } from './memory/request-when.js';
