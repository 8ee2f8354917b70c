import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Artifact, StreamResponse, Task, TaskState } from './schemas/index.js';
import { TASK_STATES } from './schemas/index.js';
import {
  TaskProjection,
  TaskTransitionError,
  batchProblem,
  canTransition,
  isInterrupted,
  isTerminal,
  stateAfter,
  taskView,
} from './task-state.js';

const terminal: TaskState[] = [
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];

function task(state: TaskState = 'TASK_STATE_WORKING'): Task {
  return { id: 't1', contextId: 'c1', status: { state, timestamp: '2026-01-01T00:00:00.000Z' } };
}
const status = (state: TaskState, text?: string) => ({
  statusUpdate: {
    taskId: 't1',
    contextId: 'c1',
    status: {
      state,
      ...(text
        ? { message: { messageId: text, role: 'ROLE_AGENT' as const, parts: [{ text }] } }
        : {}),
    },
  },
});
const chunk = (text: string, options: { append?: boolean; id?: string } = {}) => ({
  artifactUpdate: {
    taskId: 't1',
    contextId: 'c1',
    artifact: { artifactId: options.id ?? 'a1', parts: [{ text }] },
    ...(options.append ? { append: true } : {}),
  },
});

describe('task states', () => {
  it.each(TASK_STATES)('classifies %s', (state) => {
    expect(isTerminal(state)).toBe(terminal.includes(state));
    expect(isInterrupted(state)).toBe(
      state === 'TASK_STATE_INPUT_REQUIRED' || state === 'TASK_STATE_AUTH_REQUIRED',
    );
  });

  it('[81] never leaves a terminal state', () => {
    for (const from of terminal)
      for (const to of TASK_STATES) expect(canTransition(from, to)).toBe(false);
  });

  it('allows active ⇄ interrupted and any active state to end', () => {
    expect(canTransition('TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED')).toBe(true);
    expect(canTransition('TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_WORKING')).toBe(true);
    expect(canTransition('TASK_STATE_AUTH_REQUIRED', 'TASK_STATE_SUBMITTED')).toBe(true);
    for (const to of terminal) expect(canTransition('TASK_STATE_SUBMITTED', to)).toBe(true);
    expect(canTransition('TASK_STATE_WORKING', 'TASK_STATE_SUBMITTED')).toBe(false);
  });
});

describe('TaskProjection', () => {
  it('replaces the status and records status messages in history', () => {
    const p = new TaskProjection(task());
    p.apply(status('TASK_STATE_INPUT_REQUIRED', 'which date?'));
    expect(p.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(p.task.history?.map((m) => m.messageId)).toEqual(['which date?']);
  });

  it("leaves Task.metadata alone: a status update's metadata is the update's (spec §4.2.1)", () => {
    const p = new TaskProjection({ ...task(), metadata: { kept: 1 } });
    const update = status('TASK_STATE_COMPLETED', 'done');
    p.apply({ statusUpdate: { ...update.statusUpdate, metadata: { 'urn:x': { a: 1 } } } });
    expect(p.task.metadata).toEqual({ kept: 1 });
    expect(p.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('appends chunks to the artifact with the same id and keeps the events unaliased', () => {
    const p = new TaskProjection(task());
    const first = chunk('a');
    p.apply(first);
    p.apply(chunk('b', { append: true }));
    p.apply(chunk('x', { id: 'a2' }));
    expect(p.task.artifacts?.map((a) => a.parts.map((part) => part.text).join(''))).toEqual([
      'ab',
      'x',
    ]);
    expect(first.artifactUpdate.artifact.parts).toHaveLength(1);
  });

  it('replaces an artifact sent again without append', () => {
    const p = new TaskProjection(task());
    p.apply(chunk('old'));
    p.apply(chunk('new'));
    expect(p.task.artifacts).toHaveLength(1);
    expect(p.task.artifacts?.[0]?.parts[0]?.text).toBe('new');
  });

  it('[81] refuses any change once terminal', () => {
    const p = new TaskProjection(task());
    p.apply(status('TASK_STATE_COMPLETED'));
    expect(() => p.apply(status('TASK_STATE_WORKING'))).toThrow(TaskTransitionError);
    expect(() => p.apply(chunk('late'))).toThrow(TaskTransitionError);
    expect(p.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(p.task.artifacts).toBeUndefined();
  });
});

describe('taskView', () => {
  const history = ['m1', 'm2', 'm3'].map((id) => ({
    messageId: id,
    role: 'ROLE_USER' as const,
    parts: [{ text: id }],
  }));
  const full: Task = {
    ...task(),
    history,
    artifacts: [{ artifactId: 'a', parts: [{ text: 'x' }] }],
  };

  it('[85,86,87] applies historyLength: unset keeps all, 0 omits the key, N keeps the newest N', () => {
    expect(taskView(full, {}).history).toHaveLength(3);
    expect('history' in taskView(full, { historyLength: 0 })).toBe(false);
    expect(taskView(full, { historyLength: 2 }).history?.map((m) => m.messageId)).toEqual([
      'm2',
      'm3',
    ]);
    expect(taskView(full, { historyLength: 9 }).history).toHaveLength(3);
  });

  it('[94] omits the artifacts key when artifacts are not wanted', () => {
    expect('artifacts' in taskView(full, { includeArtifacts: false })).toBe(false);
    expect(full.artifacts).toHaveLength(1);
  });
});

describe('batchProblem (the one batch rule of every store and of the task log, spec §3.1)', () => {
  it('accepts a batch whose every status change is allowed, and says the state after it', () => {
    const batch = [status('TASK_STATE_WORKING'), status('TASK_STATE_INPUT_REQUIRED')];
    expect(batchProblem('TASK_STATE_SUBMITTED', batch)).toBeUndefined();
    expect(stateAfter('TASK_STATE_SUBMITTED', batch)).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('refuses any event after a terminal state, also later in the same batch', () => {
    for (const state of terminal) {
      expect(batchProblem(state, [status('TASK_STATE_WORKING')])).toMatch(/can no longer change/);
      expect(
        batchProblem('TASK_STATE_WORKING', [status(state), status('TASK_STATE_WORKING')]),
      ).toMatch(/can no longer change/);
    }
  });

  it('refuses a forbidden transition and a snapshot after the first entry', () => {
    expect(batchProblem('TASK_STATE_WORKING', [status('TASK_STATE_SUBMITTED')])).toBe(
      'task cannot move from TASK_STATE_WORKING to TASK_STATE_SUBMITTED',
    );
    expect(batchProblem('TASK_STATE_WORKING', [{ task: task() }])).toBe(
      'a task snapshot can only start a log',
    );
  });

  it('agrees with TaskProjection.apply on every state and single event', () => {
    for (const from of TASK_STATES) {
      for (const to of TASK_STATES) {
        const projection = new TaskProjection(task(from));
        let threw = false;
        try {
          projection.apply(status(to));
        } catch (error) {
          threw = error instanceof TaskTransitionError;
        }
        expect(batchProblem(from, [status(to)]) !== undefined, `${from} -> ${to}`).toBe(threw);
      }
    }
  });
});

/** The reference of artifact updates: every artifact indexed by id in a map (last one wins). */
function referenceArtifacts(initial: Artifact[], events: StreamResponse[]): Artifact[] {
  const list = initial.map((a) => ({ ...a, parts: [...a.parts] }));
  const index = new Map(list.map((a) => [a.artifactId, a]));
  for (const event of events) {
    if (!('artifactUpdate' in event)) continue;
    const { artifact, append } = event.artifactUpdate;
    const existing = index.get(artifact.artifactId);
    const copy = { ...artifact, parts: [...artifact.parts] };
    if (append && existing) existing.parts.push(...artifact.parts);
    else if (existing) {
      list[list.indexOf(existing)] = copy;
      index.set(copy.artifactId, copy);
    } else {
      list.push(copy);
      index.set(copy.artifactId, copy);
    }
  }
  return list;
}

describe('TaskProjection artifacts (looked up in the list up to 8, then by a map)', () => {
  it('applies artifact updates as a map by artifact id does', () => {
    const id = fc.integer({ min: 0, max: 11 }).map((n) => `a${n}`);
    const part = fc.string({ maxLength: 4 }).map((text) => ({ text }));
    const artifact = fc.record({
      artifactId: id,
      parts: fc.array(part, { minLength: 1, maxLength: 2 }),
    });
    fc.assert(
      fc.property(
        fc.array(artifact, { maxLength: 10 }),
        fc.array(fc.record({ artifact, append: fc.boolean() }), { maxLength: 30 }),
        (initial, updates) => {
          const events: StreamResponse[] = updates.map(({ artifact: a, append }) => ({
            artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: a, append },
          }));
          const projection = new TaskProjection({ ...task(), artifacts: initial });
          for (const event of events) projection.apply(event);
          expect(projection.task.artifacts ?? []).toEqual(referenceArtifacts(initial, events));
        },
      ),
    );
  });
});
