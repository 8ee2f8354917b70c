/**
 * What starting an execution here answers (task-runner.ts `StartResult`): the task's ids and
 * seq, and the blocking send's waits as methods on the execution (no closures per start).
 */
import type { MaybePromise } from '../core/maybe-async.js';
import type { Task } from '../core/schemas/index.js';
import { isSettled } from '../core/task-state.js';
import { whenSettled, type Execution } from './execution.js';

/**
 * The answer of a start that runs its task here: the waits of a blocking send are methods on
 * the execution (no closures per start).
 */
export class Started {
  readonly taskId: string;

  constructor(
    private readonly exec: Execution,
    readonly seq: number,
    readonly created: boolean,
    readonly resumed: Task | undefined,
  ) {
    this.taskId = exec.handle.id;
  }

  settled(): MaybePromise<void> {
    return whenSettled(this.exec);
  }

  written(): number | undefined {
    return writtenBy(this.exec);
  }
}

/** The seq an execution recorded its settled state at (undefined: it did not, or stopped). */
function writtenBy(exec: Execution): number | undefined {
  return isSettled(exec.state) && !exec.stopped ? exec.seq : undefined;
}
