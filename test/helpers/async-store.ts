/**
 * A task store that answers every call with a promise settled a turn later (what a database
 * store does), around a memory store that answers at once: the same server runs its
 * asynchronous path (core/maybe-async.ts) on it, so tests and the conformance matrix check that
 * both paths give the same answers.
 */
import type { TaskStore } from '../../src/stores/types.js';

const later = <T>(call: () => T | Promise<T>): Promise<T> => Promise.resolve().then(call);

/** `inner` answering every call asynchronously; its facets are the inner store's. */
export function answeringLater(inner: TaskStore): TaskStore {
  return {
    facets: inner.facets,
    create: (scope, task, options) => later(() => inner.create(scope, task, options)),
    append: (scope, taskId, events, expectedSeq, options) =>
      later(() => inner.append(scope, taskId, events, expectedSeq, options)),
    get: (scope, taskId, options) => later(() => inner.get(scope, taskId, options)),
    events: (scope, taskId, afterSeq, limit, maxBytes) =>
      later(() => inner.events(scope, taskId, afterSeq, limit, maxBytes)),
    list: (scope, query) => later(() => inner.list(scope, query)),
    findByMessageId: (scope, messageId) => later(() => inner.findByMessageId(scope, messageId)),
    delete: (scope, taskId) => later(() => inner.delete(scope, taskId)),
    close: () => inner.close(),
  };
}
