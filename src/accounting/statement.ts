/**
 * The statement of a finished task (docs/extensions/accounting.md §5): quote against actual.
 * The charge is what the actual use prices at, never above the authorized cap: a charge above
 * it is refused and nothing is charged.
 */
import type { TaskState } from '../core/schemas/index.js';
import { compareAmounts, duration, formatAmount, zeroOf } from './quantities.js';
import { estimateEnergy, priceOf } from './pricing.js';
import type { Meter } from './meter.js';
import type { SkillPricing } from './options.js';
import type { AccountingRecord } from './record.js';
import type { Statement } from './schemas.js';

/** What {@link buildStatement} needs. */
export interface StatementInput {
  taskId: string;
  record: AccountingRecord;
  meter: Meter;
  pricing: SkillPricing | undefined;
  skill: string | undefined;
  finalState: TaskState;
}

/** The statement of a task that just reached a terminal state. */
export function buildStatement(input: StatementInput): Statement {
  const state = input.meter.state();
  const ran = duration(state.ms);
  const statement: Statement = {
    taskId: input.taskId,
    duration: ran,
    energy: input.meter.measuredEnergy() ?? estimateEnergy(input.pricing?.energy, ran),
    units: state.units,
    outcome: 'free',
    steps: state.steps,
    finalState: input.finalState,
  };
  if (input.skill !== undefined) statement.skill = input.skill;
  const { quote, authorization } = input.record;
  if (quote) statement.quote = quote;
  if (!input.pricing || !authorization) return statement;
  statement.authorization = authorization;
  const computed = priceOf(input.pricing.price, ran, state.units);
  statement.computed = computed;
  if (input.finalState !== 'TASK_STATE_COMPLETED') {
    statement.outcome = 'void';
    statement.charged = zeroOf(computed);
    statement.refusal = `The task ended ${input.finalState}: nothing charged.`;
  } else if (compareAmounts(computed, authorization.cap) > 0) {
    statement.outcome = 'refused';
    statement.charged = zeroOf(computed);
    statement.refusal = `The charge ${formatAmount(computed)} exceeds the authorized cap ${formatAmount(authorization.cap)}: refused, nothing charged.`;
  } else {
    statement.outcome = 'charged';
    statement.charged = computed;
  }
  return statement;
}
