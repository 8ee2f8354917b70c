/**
 * How the walkthrough speaks: numbered steps, what is sent (→), what comes back (←), and the
 * check of each step (✔). With `-o json` every one of these is one JSON object per line.
 */
import type { StreamResponse } from '../../core/schemas/index.js';
import type { Output } from '../io.js';
import { eventLine } from '../render/stream-view.js';
import { table, wrap } from '../format/text.js';

/** Thrown when the agent does not do what the walkthrough expects. */
export class WalkthroughError extends Error {
  override readonly name = 'WalkthroughError';
  constructor(
    readonly step: number,
    message: string,
  ) {
    super(message);
  }
}

/** Prints the walkthrough. */
export class Narrator {
  private current = 0;

  constructor(
    private readonly out: Output,
    readonly total: number,
  ) {}

  /** The step being run (for failures). */
  get step(): number {
    return this.current;
  }

  /** Starts step `n`: a title and one sentence saying what the spec wants. */
  begin(n: number, title: string, why: string): void {
    this.current = n;
    if (this.out.json) return this.out.jsonLine({ step: n, title, why });
    const { bold, dim } = this.out.style;
    this.out.line('');
    this.out.line(bold(`Step ${n}/${this.total}  ${title}`));
    this.out.line(dim(wrap(why, this.out.columns, '  ')));
  }

  /** A request going out. */
  sent(operation: string, summary: string, request: unknown): void {
    if (this.out.json) return this.out.jsonLine({ step: this.current, operation, request });
    this.out.line(`  ${this.out.style.cyan('→')} ${this.out.style.bold(operation)}  ${summary}`);
  }

  /** One stream event coming back. */
  event(event: StreamResponse, chunk: number): void {
    if (this.out.json) return this.out.jsonLine({ step: this.current, event });
    this.out.line(`  ${this.out.style.magenta('←')} ${eventLine(event, chunk, this.out)}`);
  }

  /** A unary reply coming back, summarized. */
  received(summary: string, response: unknown): void {
    if (this.out.json) return this.out.jsonLine({ step: this.current, response });
    this.out.line(`  ${this.out.style.magenta('←')} ${summary}`);
  }

  /** Free text under the current step. */
  note(text: string): void {
    if (this.out.json) return;
    this.out.line(this.out.style.dim(wrap(text, this.out.columns, '    ')));
  }

  /** Rows of a table under the current step (text mode only: the JSON reply holds them). */
  table(rows: readonly (readonly string[])[]): void {
    if (this.out.json) return;
    for (const line of table(rows)) this.out.line(`      ${line}`);
  }

  /** Checks `condition`; the step fails with `failure` when it is false. */
  expect(condition: boolean, failure: string): asserts condition {
    if (!condition) throw new WalkthroughError(this.current, failure);
  }

  /** The step's check passed. */
  ok(text: string): void {
    if (this.out.json) return this.out.jsonLine({ step: this.current, ok: text });
    this.out.line(`  ${this.out.style.green('✔')} ${text}`);
  }
}
