/**
 * The `accounting` option of `createAgent` (src/server/agent.ts, docs/extensions/accounting.md):
 * prices and energy estimates per skill, the payers whose authorizations are accepted, clocks.
 */
import type { Message } from '../core/schemas/index.js';
import type { PayerKeys } from './authorization.js';
import type { EnergyEstimate, PriceSchedule } from './schemas.js';

/** Pricing of one skill. */
export interface SkillPricing {
  price: PriceSchedule;
  energy?: EnergyEstimate;
  /** What the quote assumes for a message: its expected run time and units of output. */
  estimate?: (message: Message) => { durationMs: number; units?: string };
  /** Terms the quote carries (refunds, quality, limits). */
  terms?: string;
}

/** `createAgent({ accounting: { price, energy, payers } })`. */
export interface AccountingOptions {
  /** Pricing per skill id; `price`/`energy` alone price the card's first skill. */
  skills?: Record<string, SkillPricing>;
  price?: PriceSchedule;
  energy?: EnergyEstimate;
  estimate?: SkillPricing['estimate'];
  /** Public keys of the payers whose authorizations are accepted, by payer id. */
  payers: PayerKeys;
  /** Card declares the extension required (default true): callers must activate it. */
  required?: boolean;
  /** Seconds a quote holds (default 600). */
  quoteTtlSeconds?: number;
  /** Server clock in ms for durations (default `performance.now`) and wall clock (`Date.now`). */
  clock?: () => number;
  now?: () => number;
}
