/**
 * Builders for the store and bus suites. Every test gets fresh ids and a fresh tenant, so the
 * suites also run against shared backends (one PostgreSQL database) without cleaning up between
 * tests.
 */
import { afterEach, beforeEach } from 'vitest';
import type { Artifact, Message, StreamResponse, Task, TaskState } from '../core/schemas/index.js';
import type { Scope, StoreFacets, TaskStore } from '../stores/types.js';

/**
 * A store call as a promise: `create`, `append`, `get` and `findByMessageId` may answer, or
 * throw, synchronously (TaskStore), so a refusal is checked the same way whichever a store does.
 */
export function attempt<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** What a store suite is given: a name, and how to make (and clean up) a store for one test. */
export interface StoreSuiteOptions {
  /** Shown in the test names. */
  name: string;
  /** A new open store for one test. Tests use fresh ids and tenants, so stores may share data. */
  create: () => Promise<TaskStore> | TaskStore;
  /** Runs after each test once the store is closed (delete a file, drop a schema). */
  cleanup?: (store: TaskStore) => Promise<void> | void;
}

/**
 * Gives every test of the enclosing `describe` a fresh store (closed, then cleaned up, after the
 * test); returns the getter of the current one.
 */
export function storePerTest(options: Omit<StoreSuiteOptions, 'name'>): () => TaskStore {
  let current: TaskStore | undefined;
  beforeEach(async () => {
    current = await options.create();
  });
  afterEach(async () => {
    const closing = current;
    current = undefined;
    if (!closing) return;
    await closing.close();
    await options.cleanup?.(closing);
  });
  return () => {
    if (!current) throw new Error('the store is only available inside a test');
    return current;
  };
}

/** Creates a task in `scope`, then moves it to `state` (SUBMITTED: as created); returns its id. */
export async function taskIn(
  store: TaskStore,
  scope: Scope,
  state: TaskState = 'TASK_STATE_WORKING',
): Promise<string> {
  const created = newTask({});
  await store.create(scope, created);
  if (state !== 'TASK_STATE_SUBMITTED') {
    await store.append(scope, created.id, [statusEvent(created, state)], 1);
  }
  return created.id;
}

/** Waits `ms` (suites that let a store's clock move on). */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** One declared capability of a store (its `facets`); fails the test when it is not offered. */
export function facet<K extends keyof StoreFacets>(
  store: TaskStore,
  name: K,
): NonNullable<StoreFacets[K]> {
  const value = store.facets?.[name];
  if (value === undefined || value === null) {
    throw new Error(`this store declares no \`facets.${name}\`: the suite needs it`);
  }
  return value;
}

/** A unique id with a readable prefix. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${globalThis.crypto.randomUUID()}`;
}

/** A fresh tenant with two owners, plus the same owner in another tenant. */
export function freshScopes(): { scope: Scope; otherOwner: Scope; otherTenant: Scope } {
  const tenant = uniqueId('tenant');
  return {
    scope: { tenant, owner: 'alice' },
    otherOwner: { tenant, owner: 'bob' },
    otherTenant: { tenant: `${tenant}-other`, owner: 'alice' },
  };
}

/** The RFC 3339 timestamp `seconds` after 2025-01-01T00:00:00.000Z. */
export function at(seconds: number): string {
  return new Date(Date.UTC(2025, 0, 1) + seconds * 1000).toISOString();
}

/** A user message with one text part. */
export function userText(text: string, extra: Partial<Message> = {}): Message {
  return { messageId: uniqueId('msg'), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/** An agent message with one text part. */
export function agentText(text: string): Message {
  return { messageId: uniqueId('msg'), role: 'ROLE_AGENT', parts: [{ text }] };
}

/** A task as the server creates it: SUBMITTED with the user's message in its history. */
export function newTask(options: {
  id?: string;
  contextId?: string;
  state?: TaskState;
  timestamp?: string;
}): Task {
  return {
    id: options.id ?? uniqueId('task'),
    contextId: options.contextId ?? uniqueId('ctx'),
    status: {
      state: options.state ?? 'TASK_STATE_SUBMITTED',
      timestamp: options.timestamp ?? at(0),
    },
    history: [userText('hello')],
  };
}

/** A statusUpdate event for `task`. */
export function statusEvent(
  task: Task,
  state: TaskState,
  options: { timestamp?: string; message?: Message } = {},
): StreamResponse {
  return {
    statusUpdate: {
      taskId: task.id,
      contextId: task.contextId ?? '',
      status: {
        state,
        timestamp: options.timestamp ?? at(1),
        ...(options.message ? { message: options.message } : {}),
      },
    },
  };
}

/** An artifactUpdate event for `task`. */
export function artifactEvent(
  task: Task,
  artifact: Artifact,
  flags: { append?: boolean; lastChunk?: boolean } = {},
): StreamResponse {
  return {
    artifactUpdate: { taskId: task.id, contextId: task.contextId ?? '', artifact, ...flags },
  };
}

/** A text artifact. */
export function textArtifact(artifactId: string, ...texts: string[]): Artifact {
  return { artifactId, parts: texts.map((text) => ({ text })) };
}
