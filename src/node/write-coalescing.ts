/**
 * The replies written within one turn of the event loop leave together: the listener hands each
 * reply's socket write (a whole reply, an SSE burst, a stream's end) to a {@link WriteCoalescer},
 * which makes them all when the turn's I/O callbacks are done (the loop's check phase, right
 * after the poll phase that read the requests, so an idle server adds no wait), after the store
 * work of the turn (src/core/turn-end.ts), so that replies a commit of this turn lets go leave
 * with the others.
 *
 * Why: on Linux the `writev` that sends a reply over a local connection also runs the reader's
 * side and wakes the reader if it sleeps. A client woken once per reply makes the server pay a
 * wake-up (a cross-core interrupt, dearer still in a virtual machine) for every reply; replies
 * sent back to back wake it once. Measured under the bench's send load (docs/benchmarks.md,
 * "Replies of one turn written together"): the server's system time per request fell from ~42
 * to ~14 µs, its user time too. What a reply says, the order of the replies on a connection and
 * backpressure are unchanged; a reply leaves at the end of the turn that made it instead of at
 * once.
 */

import { TurnStage, atTurnEnd } from '../core/turn-end.js';

/** Socket writes held until the end of the event loop's turn. */
export class WriteCoalescer {
  private held: (() => void)[] = [];
  private readonly flush = (): void => {
    const writes = this.held;
    this.held = [];
    for (const write of writes) {
      // One reply's failure is that reply's: the others of the turn still leave.
      try {
        write();
      } catch (error) {
        this.onError(error);
      }
    }
  };

  constructor(
    /** What a write that throws is reported to (the listener logs it as an internal error). */
    private readonly onError: (error: unknown) => void,
    /** Calls `flush` once the turn's I/O is handled (default: the turn's replies stage). */
    private readonly schedule: (flush: () => void) => void = (flush) => {
      atTurnEnd(TurnStage.replies, flush);
    },
  ) {}

  /** Makes `write` at the end of this turn, after the writes held before it. */
  readonly later = (write: () => void): void => {
    if (this.held.push(write) === 1) this.schedule(this.flush);
  };
}
