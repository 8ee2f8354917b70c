/** Making a quote for a task (docs/extensions/accounting.md §3.2). */
import { newId } from '../core/ids.js';
import type { Message } from '../core/schemas/index.js';
import { duration } from './quantities.js';
import { estimateEnergy, priceOf } from './pricing.js';
import type { SkillPricing } from './options.js';
import type { Quote } from './schemas.js';

/** What {@link newQuote} needs. */
export interface QuoteInput {
  taskId: string;
  skill: string;
  pricing: SkillPricing;
  message: Message;
  /** Units the client asked the quote to assume. */
  units: string | undefined;
  ttlSeconds: number;
  now: number;
}

/** The quote of one task: the skill's price at the estimated duration and units of output. */
export function newQuote(input: QuoteInput): Quote {
  const estimate = input.pricing.estimate?.(input.message) ?? { durationMs: 1000 };
  const units = input.units ?? estimate.units ?? '0';
  const expected = duration(estimate.durationMs);
  const quote: Quote = {
    quoteId: newId(),
    taskId: input.taskId,
    skill: input.skill,
    amount: priceOf(input.pricing.price, expected, units),
    duration: expected,
    energy: estimateEnergy(input.pricing.energy, expected),
    price: input.pricing.price,
    units,
    expiresAt: new Date(input.now + input.ttlSeconds * 1000).toISOString(),
  };
  if (input.pricing.terms !== undefined) quote.terms = input.pricing.terms;
  return quote;
}
