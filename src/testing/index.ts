/**
 * `a2a-kit/testing`: the conformance suites every store and bus runs, and their fixtures.
 * Imports vitest (a peer dependency of this entry only).
 */
export { runTaskStoreSuite } from './task-store-suite.js';
export type { TaskStoreSuiteOptions } from './task-store-suite.js';
export { runEventBusSuite } from './event-bus-suite.js';
export type { EventBusSuiteOptions } from './event-bus-suite.js';
export { runInterruptedTaskIndexSuite } from './interrupted-index-suite.js';
export type { InterruptedTaskIndexSuiteOptions } from './interrupted-index-suite.js';
export { runLeaseStoreSuite } from './lease-store-suite.js';
export type { LeaseStoreSuiteOptions } from './lease-store-suite.js';
export { pushConfig, runPushConfigStoreSuite } from './push-config-suite.js';
export type { PushConfigStoreSuiteOptions, PushConfigTaskStore } from './push-config-suite.js';
export { runPushOutboxSuite } from './push-outbox-suite.js';
export type { PushOutboxSuiteOptions, PushOutboxTaskStore } from './push-outbox-suite.js';
