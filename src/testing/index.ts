/**
 * `a2a-kit/testing`: the conformance suites every store and bus runs, and their fixtures.
 * Imports vitest (a peer dependency of this entry only).
 */
export { runTaskStoreSuite } from './task-store-suite.js';
export type { TaskStoreSuiteOptions } from './task-store-suite.js';
export { runEventBusSuite } from './event-bus-suite.js';
export type { EventBusSuiteOptions } from './event-bus-suite.js';
