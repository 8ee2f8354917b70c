import { describe, expect, it } from 'vitest';
import { TASK_STATES, type StreamResponse, type TaskState } from '../../core/schemas/index.js';
import { TaskTransitionError } from '../../core/task-state.js';
import { newTask, statusEvent, textArtifact, artifactEvent } from '../../testing/store-fixtures.js';
import { allowedFrom, transitionError } from './transitions.js';

const task = newTask({});
const status = (state: TaskState) => statusEvent(task, state);
const chunk = artifactEvent(task, textArtifact('a', 'x'));
const ACTIVE: TaskState[] = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
];

describe('allowedFrom', () => {
  const cases: [string, StreamResponse[], TaskState[]][] = [
    ['an artifact: any active state', [chunk], ACTIVE],
    ['nothing: any state (an empty append changes nothing)', [], [...TASK_STATES]],
    [
      'SUBMITTED: from SUBMITTED or an interrupted state only',
      [status('TASK_STATE_SUBMITTED')],
      ['TASK_STATE_SUBMITTED', 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED'],
    ],
    ['COMPLETED then anything: never', [status('TASK_STATE_COMPLETED'), chunk], []],
    ['a task snapshot: never', [{ task }], []],
    [
      'WORKING then INPUT_REQUIRED then SUBMITTED: any active state',
      [
        status('TASK_STATE_WORKING'),
        status('TASK_STATE_INPUT_REQUIRED'),
        status('TASK_STATE_SUBMITTED'),
      ],
      ACTIVE,
    ],
  ];
  it.each(cases)('%s', (_, events, expected) => {
    expect(allowedFrom(events).sort()).toEqual([...expected].sort());
  });
});

describe('transitionError', () => {
  it('says why, as the TaskTransitionError TaskProjection throws', () => {
    const error = transitionError(task.id, 'TASK_STATE_COMPLETED', [chunk]);
    expect(error).toBeInstanceOf(TaskTransitionError);
    expect(error.message).toContain('TASK_STATE_COMPLETED');
  });
});
