/** Small pieces the task verbs share: required arguments, exit codes and next-step hints. */
import type { Task, TaskState } from '../core/schemas/index.js';
import { EXIT, UsageError, type ExitCode } from './exit-codes.js';
import type { Output } from './io.js';

/** The first `names.length` positionals, or a usage error naming the first one missing. */
export function requireArgs(positionals: readonly string[], names: readonly string[]): string[] {
  const missing = names[positionals.length];
  if (missing !== undefined) throw new UsageError(`missing ${missing}`);
  return positionals.slice(0, names.length);
}

/** No more positionals than `max`. */
export function noExtraArgs(positionals: readonly string[], max: number): void {
  const extra = positionals.slice(max);
  if (extra.length > 0) {
    throw new UsageError(`unexpected argument${extra.length > 1 ? 's' : ''}: ${extra.join(' ')}`);
  }
}

/** 1 when the task ended FAILED or REJECTED, else 0. */
export function exitForState(state: TaskState | undefined): ExitCode {
  return state === 'TASK_STATE_FAILED' || state === 'TASK_STATE_REJECTED'
    ? EXIT.AGENT_ERROR
    : EXIT.OK;
}

/** What the user can do next with a task in its current state (text mode only). */
export function printNextSteps(out: Output, url: string, task: Task): void {
  if (out.json) return;
  const { dim } = out.style;
  const state = task.status.state;
  const id = task.id;
  const hints: string[] = [];
  if (state === 'TASK_STATE_INPUT_REQUIRED') {
    hints.push(`the agent needs input: a2a send ${url} --task ${id} "<your answer>"`);
  } else if (state === 'TASK_STATE_AUTH_REQUIRED') {
    hints.push(
      `the agent needs authorization; then continue with: a2a send ${url} --task ${id} "<message>"`,
    );
  } else if (state === 'TASK_STATE_SUBMITTED' || state === 'TASK_STATE_WORKING') {
    hints.push(`still running: follow it with a2a subscribe ${url} ${id}, or a2a get ${url} ${id}`);
    hints.push(`stop it with a2a cancel ${url} ${id}`);
  } else if (task.contextId) {
    hints.push(
      `follow up in the same conversation: a2a send ${url} --context ${task.contextId} "<text>"`,
    );
  }
  out.line('');
  for (const hint of hints) out.line(dim(`→ ${hint}`));
}
