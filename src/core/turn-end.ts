/**
 * The end of an event-loop turn, in stages: the SQLite store's reads, then its writes, then the
 * replies the listener holds (src/node/write-coalescing.ts). Each stage runs in the loop's check
 * phase (`setImmediate`), right after the poll phase that read the requests, so an idle server
 * adds no wait.
 *
 * Why stages: work that the answers of one stage lead to must join the next stage of the same
 * turn instead of waiting for the next turn. A blocking send on SQLite looks its messageId up
 * (reads), the answer lets the agent run and the task be written (writes), the commit lets the
 * reply go (replies). With one `setImmediate` per queue, each step waited a turn: a send took
 * three turns, and under load the sends in flight split into three cohorts, each committed
 * apart. Node runs the promise callbacks an immediate's work wakes before it runs the next
 * immediate, so one immediate per stage, reserved together, carries a send through all three in
 * one turn.
 *
 * Each reserved immediate runs the earliest stage that has work, so the order holds whatever
 * order the stages were asked for in. Work asked for once the reserved immediates have run gets
 * new ones: it runs at the end of the next turn.
 */

/** The stages, in the order they run. */
export const TurnStage = { reads: 0, writes: 1, replies: 2 } as const;
export type TurnStage = (typeof TurnStage)[keyof typeof TurnStage];

const STAGES = 3;
const pending: (() => void)[][] = Array.from({ length: STAGES }, () => []);
let reserved = 0;

/** Runs `flush` at the end of this turn, after the stages before `stage`. */
export function atTurnEnd(stage: TurnStage, flush: () => void): void {
  (pending[stage] as (() => void)[]).push(flush);
  if (reserved === 0) reserve();
}

function reserve(): void {
  reserved = STAGES;
  for (let i = 0; i < STAGES; i++) setImmediate(runEarliest);
}

function runEarliest(): void {
  reserved--;
  const stage = pending.find((flushes) => flushes.length > 0);
  if (stage !== undefined) {
    for (const flush of stage.splice(0)) {
      try {
        flush();
      } catch (error) {
        // Reported as uncaught, as an immediate of its own would be; the others still run.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
  // Work left once the reserved immediates are spent runs at the end of the next turn.
  if (reserved === 0 && pending.some((flushes) => flushes.length > 0)) reserve();
}
