/** The readable form of a Task or a reply Message (send, get, cancel). */
import type { Message, SendMessageResponse, Task } from '../../core/schemas/index.js';
import type { Style } from '../io.js';
import {
  artifactTitle,
  indent,
  messageLine,
  partsText,
  roleName,
  shortTime,
  stateLabel,
  table,
} from './text.js';

/** What to include. */
export interface TaskViewOptions {
  /** Print the history messages (else only their count). */
  history?: boolean | undefined;
}

/** A task: ids, state, status message, artifacts' text, history. */
export function taskLines(task: Task, style: Style, options: TaskViewOptions = {}): string[] {
  const { status } = task;
  const head: string[][] = [
    [style.bold('Task'), task.id],
    [style.bold('Context'), task.contextId ?? '-'],
    [
      style.bold('State'),
      `${stateLabel(status.state, style)}  ${style.dim(shortTime(status.timestamp))}`,
    ],
  ];
  if (status.message) {
    head.push([
      style.bold('Status'),
      `${roleName(status.message.role)}: ${partsText(status.message.parts)}`,
    ]);
  }
  const lines = table(head);
  const artifacts = task.artifacts ?? [];
  if (artifacts.length > 0) {
    lines.push('', style.bold(`Artifacts (${artifacts.length})`));
    for (const artifact of artifacts) {
      lines.push(`  ${style.cyan(artifactTitle(artifact))}`);
      lines.push(indent(partsText(artifact.parts), '    '));
    }
  }
  const history = task.history ?? [];
  if (options.history && history.length > 0) {
    lines.push('', style.bold(`History (${history.length})`));
    for (const message of history) lines.push(`  ${messageLine(message)}`);
  }
  return lines;
}

/** A message the agent answered with instead of a task. */
export function messageLines(message: Message, style: Style): string[] {
  return [
    `${style.bold('Message')} from ${roleName(message.role)} ${style.dim('(no task was created)')}`,
    indent(partsText(message.parts), '  '),
  ];
}

/** The reply of SendMessage: a task or a message. */
export function responseLines(
  response: SendMessageResponse,
  style: Style,
  options: TaskViewOptions = {},
): string[] {
  return 'task' in response
    ? taskLines(response.task, style, options)
    : messageLines(response.message, style);
}
