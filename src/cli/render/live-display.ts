/**
 * The live display of a stream on a terminal: state changes as permanent lines, artifact text
 * streamed in as it grows (word-wrapped), and a spinner line at the bottom with the state, the
 * latest status text, the number of artifact chunks and the elapsed time.
 */
import type { StreamResponse, TaskState } from '../../core/schemas/index.js';
import type { Output } from '../io.js';
import type { StreamState } from './stream-state.js';
import {
  artifactTitle,
  oneLine,
  partsText,
  roleName,
  shortState,
  stateLabel,
} from '../format/text.js';
import { splitRows } from './wrap-rows.js';

/** Receives each event and the end of the stream. */
export interface StreamRenderer {
  event(event: StreamResponse, state: StreamState, chunk: number): void;
  /**
   * Called once, also when the stream failed or was interrupted (`failed`, before the error is
   * reported): then no final state is claimed.
   */
  finish(state: StreamState, failed: boolean): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const CLEAR_LINE = '\r\x1b[2K';
const UP = '\x1b[1A';
const TEXT_INDENT = '    ';

/** Live progress on a TTY. */
export class LiveDisplay implements StreamRenderer {
  private readonly started = Date.now();
  private frame = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private shownState: TaskState | undefined;
  private statusText = '';
  /** The unfinished row of artifact text, drawn above the spinner line. */
  private partial: string | undefined;
  private bottomDrawn = false;
  private partialDrawn = false;
  private currentArtifact: string | undefined;
  private state: StreamState | undefined;

  constructor(private readonly out: Output) {
    this.timer = setInterval(() => this.redraw(), 100);
    this.timer.unref();
  }

  /** Renders one event. */
  event(event: StreamResponse, state: StreamState, _chunk: number): void {
    this.state = state;
    const { style } = this.out;
    if ('task' in event) {
      const { task } = event;
      this.shownState = task.status.state;
      this.commit([
        `${style.bold('▶ task')} ${task.id} ${style.dim(`(context ${task.contextId ?? '-'})`)}`,
        `  ● ${stateLabel(task.status.state, style)}`,
      ]);
    } else if ('message' in event) {
      this.commit([
        `${style.bold(roleName(event.message.role))}: ${partsText(event.message.parts)}`,
      ]);
    } else if ('statusUpdate' in event) {
      const { status } = event.statusUpdate;
      const text = status.message
        ? `${roleName(status.message.role)}: ${oneLine(partsText(status.message.parts))}`
        : '';
      if (status.state !== this.shownState) {
        this.shownState = status.state;
        const lines: string[] = [];
        this.flushPartial(lines);
        lines.push(`  ● ${stateLabel(status.state, style)}${text ? `  ${text}` : ''}`);
        this.commit(lines);
        this.statusText = '';
      } else {
        this.statusText = text;
        this.redraw();
      }
    } else {
      const { artifact, append } = event.artifactUpdate;
      const lines: string[] = [];
      if (!append || this.currentArtifact !== artifact.artifactId) {
        this.flushPartial(lines);
        lines.push(`  ▸ ${style.cyan(artifactTitle(artifact))}`);
        this.partial = '';
      }
      this.currentArtifact = artifact.artifactId;
      this.appendText(lines, partsText(artifact.parts));
    }
  }

  /** Stops the spinner and prints the final line (none when the stream failed). */
  finish(state: StreamState, failed: boolean): void {
    clearInterval(this.timer);
    this.timer = undefined;
    const lines: string[] = [];
    this.flushPartial(lines);
    const task = state.task;
    if (task && !failed) {
      const s = task.status.state;
      const ok = s !== 'TASK_STATE_FAILED' && s !== 'TASK_STATE_REJECTED';
      const mark = ok ? this.out.style.green('✔') : this.out.style.red('✘');
      lines.push(`${mark} ${stateLabel(s, this.out.style)} · ${this.counts(state)}`);
    }
    this.clearBottom();
    for (const line of lines) this.out.line(line);
  }

  private counts(state: StreamState): string {
    const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
    return `${state.chunks} chunk${state.chunks === 1 ? '' : 's'} · ${seconds}s`;
  }

  /** Adds streamed text: complete rows become permanent, the rest stays as the partial row. */
  private appendText(lines: string[], text: string): void {
    const width = Math.max(10, this.out.columns - TEXT_INDENT.length - 1);
    const { rows, rest } = splitRows((this.partial ?? '') + text, width);
    for (const row of rows) lines.push(TEXT_INDENT + row);
    this.partial = rest;
    this.commit(lines);
  }

  private flushPartial(lines: string[]): void {
    if (this.partial) lines.push(TEXT_INDENT + this.partial);
    this.partial = undefined;
  }

  /** Prints permanent lines above the live area. */
  private commit(lines: readonly string[]): void {
    this.clearBottom();
    for (const line of lines) this.out.line(line);
    this.drawBottom();
  }

  private redraw(): void {
    if (!this.timer) return;
    this.frame = (this.frame + 1) % FRAMES.length;
    this.clearBottom();
    this.drawBottom();
  }

  private clearBottom(): void {
    if (this.bottomDrawn) this.out.write(CLEAR_LINE);
    if (this.partialDrawn) this.out.write(UP + CLEAR_LINE);
    this.bottomDrawn = false;
    this.partialDrawn = false;
  }

  private drawBottom(): void {
    if (!this.timer) return;
    if (this.partial) {
      this.out.write(`${TEXT_INDENT}${this.partial}\n`);
      this.partialDrawn = true;
    }
    const { style } = this.out;
    const state = this.shownState ? shortState(this.shownState) : 'connecting';
    const text = this.statusText ? ` · ${this.statusText}` : '';
    const counts = this.state ? this.counts(this.state) : '';
    const line = `${FRAMES[this.frame] ?? ''} ${state}${text}${counts ? ` · ${counts}` : ''}`;
    this.out.write(style.dim(line.slice(0, this.out.columns - 1)));
    this.bottomDrawn = true;
  }
}
