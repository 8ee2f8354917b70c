/** Text lines for the accounting extension's quote and statement (docs/extensions/accounting.md). */
import { formatAmount } from '../../accounting/quantities.js';
import type { Quote, Statement } from '../../accounting/schemas.js';
import type { Style } from '../io.js';

/** A quote, a few lines. */
export function quoteLines(quote: Quote, style: Style): string[] {
  const lines = [
    `${style.bold('Quote')} ${quote.quoteId} for skill ${quote.skill}: ${style.bold(formatAmount(quote.amount))}`,
    `  about ${quote.duration.ms} ms, ${quote.energy.joules} J (${quote.energy.method}), valid until ${quote.expiresAt}`,
  ];
  if (quote.terms) lines.push(`  terms: ${quote.terms}`);
  return lines;
}

/** A statement: quote against actual, the charge and its outcome. */
export function statementLines(statement: Statement, style: Style): string[] {
  const lines = [
    `${style.bold('Statement')} of task ${statement.taskId} (${statement.finalState})`,
  ];
  const quoted = statement.quote;
  lines.push(
    `  duration ${statement.duration.ms} ms${quoted ? ` (quoted ${quoted.duration.ms} ms)` : ''}`,
    `  energy   ${statement.energy.joules} J ${statement.energy.method}${quoted ? ` (quoted ${quoted.energy.joules} J)` : ''}`,
    `  units    ${statement.units}`,
  );
  if (statement.computed) {
    lines.push(
      `  priced   ${formatAmount(statement.computed)}${quoted ? ` (quoted ${formatAmount(quoted.amount)})` : ''}`,
    );
  }
  if (statement.authorization)
    lines.push(
      `  cap      ${formatAmount(statement.authorization.cap)} (payer ${statement.authorization.iss})`,
    );
  const charged = statement.charged ? formatAmount(statement.charged) : 'nothing';
  lines.push(`  charged  ${style.bold(charged)} · ${statement.outcome}`);
  if (statement.refusal) lines.push(`  ${statement.refusal}`);
  for (const step of statement.steps) {
    const parts = [
      step.duration ? `${step.duration.ms} ms` : '',
      step.energy ? `${step.energy.joules} J` : '',
      step.units ? `${step.units} units` : '',
    ].filter(Boolean);
    lines.push(`  step ${step.name}: ${parts.join(', ')}`);
  }
  return lines;
}
