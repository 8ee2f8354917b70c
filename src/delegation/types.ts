/** The objects of Contract Net (docs/extensions/delegation.md §2): bids and the events of a run. */
import type { Amount } from '../accounting/quantities.js';
import type { Quote, Statement } from '../accounting/schemas.js';
import type { AgentCard, Task } from '../core/schemas/index.js';

/** One contractor's bid: its quote (amount, duration, energy, terms) on its own task. */
export interface Bid {
  /** The contractor's URL as given. */
  readonly bidder: string;
  readonly agent: string;
  readonly quote: Quote;
  /** Order of arrival (0 first): the tie-breaker of every policy. */
  readonly arrival: number;
  /**
   * The bid task's A2A 1.1 draft `generation` when the bid was seen (a contractor serving
   * `generations: true`): the award is sent with `ifGenerationMatch` on it, so it applies to
   * exactly that bid. Undefined when the contractor does not implement generations.
   */
  readonly generation?: number;
}

/** Every step of a Contract Net run, in order (render it, or log it). */
export type ContractNetEvent =
  | { type: 'discovered'; bidder: string; card: AgentCard }
  | { type: 'skipped'; bidder: string; reason: string }
  | { type: 'cfp'; bidder: string }
  | { type: 'bid'; bid: Bid }
  | { type: 'no-bid'; bidder: string; reason: string }
  | { type: 'over-budget'; bid: Bid; remaining: Amount }
  | { type: 'ranked'; order: string[] }
  | { type: 'award'; bid: Bid; cap: Amount }
  | { type: 'failed'; bid: Bid; reason: string; task?: Task }
  | { type: 'completed'; bid: Bid; task: Task; statement: Statement | undefined }
  | { type: 'rejected'; bid: Bid; state: string }
  | { type: 'exhausted'; reason: string };

/** How a run ended. */
export interface ContractNetResult {
  /** The bid whose task completed, if any. */
  winner: Bid | undefined;
  task: Task | undefined;
  statement: Statement | undefined;
  /** Every bid received before the deadline. */
  bids: Bid[];
  /** What was charged over every award (the failed ones charge nothing). */
  spent: Amount | undefined;
  events: ContractNetEvent[];
}
