/**
 * Shows a stream of task events (send --stream, subscribe): one JSON object per line with
 * `-o json`, one plain line per event when stdout is not a terminal, and a live display on a
 * terminal (see live-display.ts).
 */
import type { StreamResponse } from '../../core/schemas/index.js';
import { isSettled } from '../../core/task-state.js';
import type { ErrorContext } from '../describe-error.js';
import type { Output } from '../io.js';
import { LiveDisplay, type StreamRenderer } from './live-display.js';
import { StreamState } from './stream-state.js';
import {
  artifactTitle,
  oneLine,
  partsText,
  roleName,
  shortState,
  stateLabel,
} from '../format/text.js';

/** Options of {@link watchStream}. */
export interface WatchOptions {
  /**
   * Stop at the first event that leaves the task terminal or interrupted (INPUT_REQUIRED,
   * AUTH_REQUIRED). SubscribeToTask stays open past an interruption (spec §3.1.6 ends it only
   * when the task is terminal), so `subscribe` stops there itself.
   */
  untilSettled?: boolean | undefined;
}

/**
 * Consumes `events`, rendering each; returns what the stream said. Errors propagate, with the
 * task id (if one was seen) recorded in `errors` so an interrupted user learns how to go on.
 */
export async function watchStream(
  events: AsyncIterable<StreamResponse>,
  out: Output,
  errors: ErrorContext,
  options: WatchOptions = {},
): Promise<StreamState> {
  const state = new StreamState();
  const renderer: StreamRenderer = out.json
    ? { event: (e) => out.jsonLine(e), finish: () => undefined }
    : out.tty
      ? new LiveDisplay(out)
      : new PlainLines(out);
  let failed = false;
  try {
    for await (const event of events) {
      const chunk = state.apply(event);
      renderer.event(event, state, chunk);
      // Leaving the loop closes the stream (the HTTP body or the gRPC call), never the task.
      if (options.untilSettled && state.state !== undefined && isSettled(state.state)) break;
    }
  } catch (error) {
    failed = true;
    errors.taskId = state.task?.id;
    throw error;
  } finally {
    renderer.finish(state, failed);
  }
  return state;
}

/** One line per event, for pipes and logs. */
export class PlainLines implements StreamRenderer {
  constructor(private readonly out: Output) {}

  /** Prints the event as one line. */
  event(event: StreamResponse, _state: StreamState, chunk: number): void {
    this.out.line(eventLine(event, chunk, this.out));
  }

  /** Prints the final state (none when the stream failed: the error says what happened). */
  finish(state: StreamState, failed: boolean): void {
    const task = state.task;
    if (!task || failed) return;
    const chunks = state.chunks
      ? ` · ${state.chunks} artifact chunk${state.chunks === 1 ? '' : 's'}`
      : '';
    this.out.line(`final state ${shortState(task.status.state)} · task ${task.id}${chunks}`);
  }
}

/** One event as one line (also used by the walkthrough). */
export function eventLine(event: StreamResponse, chunk: number, out: Output): string {
  const { style } = out;
  if ('task' in event) {
    const { task } = event;
    return `task ${task.id} · context ${task.contextId ?? '-'} · ${stateLabel(task.status.state, style)}`;
  }
  if ('message' in event) {
    return `message ${roleName(event.message.role)}: ${oneLine(partsText(event.message.parts))}`;
  }
  if ('statusUpdate' in event) {
    const { status } = event.statusUpdate;
    const text = status.message
      ? ` · ${roleName(status.message.role)}: ${oneLine(partsText(status.message.parts))}`
      : '';
    return `status ${stateLabel(status.state, style)}${text}`;
  }
  const { artifact, append, lastChunk } = event.artifactUpdate;
  const flags = [append ? 'append' : '', lastChunk ? 'last' : ''].filter(Boolean).join(', ');
  // The id once, on the chunk that opens the artifact; later chunks name it only.
  const title = append ? (artifact.name ?? artifact.artifactId) : artifactTitle(artifact);
  return `artifact ${title} chunk ${chunk}${flags ? ` (${flags})` : ''}: ${oneLine(partsText(artifact.parts))}`;
}
