/**
 * `a2a send --quote` / `--max-amount`: ask the quote, show it, and (within the maximum)
 * authorize it with the payer's key and show the statement (docs/extensions/accounting.md).
 */
import { readFile } from 'node:fs/promises';
import type { JWK } from 'jose';
import { authorize } from '../accounting/authorization.js';
import { requestQuote, sendAuthorized } from '../client/accounting.js';
import { statementOf } from '../accounting/record.js';
import { compareAmounts, formatAmount, parseAmount } from '../accounting/quantities.js';
import type { A2AClient } from '../client/client.js';
import type { Message } from '../core/schemas/index.js';
import { importSigningKey } from '../security/signing-keys.js';
import { EXIT, UsageError, type ExitCode } from './exit-codes.js';
import { quoteLines, statementLines } from './format/accounting.js';
import { taskLines } from './format/task.js';
import type { Output } from './io.js';
import { exitForState } from './task-helpers.js';

/** What the priced send needs. */
export interface PricedSend {
  client: A2AClient;
  message: Message;
  /** Only ask and show the quote. */
  quoteOnly: boolean;
  /** `0.10USD`: authorize up to this. */
  maxAmount: string | undefined;
  /** Private JWK of the payer (`a2a card keygen --out payer.jwk`). */
  payerKey: string | undefined;
  payer: string;
  skill: string | undefined;
  out: Output;
  signal: AbortSignal;
}

/** Runs the priced send; the exit code follows the task's final state. */
export async function pricedSend(options: PricedSend): Promise<ExitCode> {
  const { client, out, signal } = options;
  const quoteOptions = options.skill !== undefined ? { skill: options.skill, signal } : { signal };
  const { quote, task } = await requestQuote(client, options.message, quoteOptions);
  if (options.quoteOnly || options.maxAmount === undefined) {
    if (out.json) out.jsonDoc({ quote, task });
    else {
      for (const line of quoteLines(quote, out.style)) out.line(line);
      out.line(
        out.style.dim(
          `→ authorize: a2a send <url> --task ${task.id} … or rerun with --max-amount ${formatAmount(quote.amount).replace(' ', '')} --payer-key FILE`,
        ),
      );
    }
    return EXIT.OK;
  }
  let cap;
  try {
    cap = parseAmount(options.maxAmount, quote.amount.decimals);
  } catch (error) {
    throw new UsageError(`--max-amount: ${(error as Error).message}`, 'write it like 0.10USD');
  }
  if (cap.asset !== quote.amount.asset || compareAmounts(cap, quote.amount) < 0) {
    if (!out.json) for (const line of quoteLines(quote, out.style)) out.line(line);
    out.line(
      `Not authorized: the quote ${formatAmount(quote.amount)} is above --max-amount ${formatAmount(cap)}. Nothing was charged.`,
    );
    return EXIT.AGENT_ERROR;
  }
  if (options.payerKey === undefined) {
    throw new UsageError(
      '--max-amount needs --payer-key FILE',
      'make one with: a2a card keygen --out payer.jwk',
    );
  }
  const key = await importSigningKey(JSON.parse(await readFile(options.payerKey, 'utf8')) as JWK);
  const jws = await authorize(quote, {
    cap,
    signer: { payer: options.payer, key: key.key, alg: key.alg, kid: key.kid },
  });
  const done = await sendAuthorized(client, quote, jws, { signal });
  const statement = statementOf(done);
  if (out.json) out.jsonDoc({ quote, task: done, statement });
  else {
    for (const line of quoteLines(quote, out.style)) out.line(line);
    for (const line of taskLines(done, out.style)) out.line(line);
    if (statement) for (const line of statementLines(statement, out.style)) out.line(line);
  }
  return exitForState(done.status.state);
}
