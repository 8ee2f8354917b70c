/**
 * `a2a cfp`: a Contract Net call for proposals (docs/extensions/delegation.md §2): bids from the
 * agents of a list, the award, re-awards, rejections, and the winner's statement, as they happen.
 */
import { readFile } from 'node:fs/promises';
import type { JWK } from 'jose';
import { formatAmount, parseAmount } from '../../accounting/quantities.js';
import { contractNet } from '../../delegation/contract-net.js';
import type { RankPolicy } from '../../delegation/policies.js';
import type { ContractNetEvent } from '../../delegation/types.js';
import { importSigningKey } from '../../security/signing-keys.js';
import { type Command } from '../command.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { statementLines } from '../format/accounting.js';
import type { Style } from '../io.js';
import { stringFlag } from '../options.js';

const POLICIES = ['cheapest', 'fastest', 'least-energy'] as const;

/** `5s`, `500ms`, `2m` or plain milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)(ms|s|m)?$/.exec(text.trim());
  if (!m)
    throw new UsageError(`--deadline: "${text}" is not a duration`, 'write it like 5s or 500ms');
  const n = Number(m[1]);
  return m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n;
}

/** One line per Contract Net event. */
export function cfpEventLine(event: ContractNetEvent, style: Style): string {
  switch (event.type) {
    case 'discovered':
      return style.dim(`found    ${event.card.name} at ${event.bidder}`);
    case 'skipped':
      return style.dim(`skip     ${event.bidder}: ${event.reason}`);
    case 'cfp':
      return style.dim(`cfp →    ${event.bidder}`);
    case 'bid':
      return `bid      ${event.bid.agent}: ${formatAmount(event.bid.quote.amount)}, ${event.bid.quote.duration.ms} ms, ${event.bid.quote.energy.joules} J`;
    case 'no-bid':
      return style.dim(`no bid   ${event.bidder}: ${event.reason}`);
    case 'over-budget':
      return `budget   ${event.bid.agent}: ${formatAmount(event.bid.quote.amount)} is above the ${formatAmount(event.remaining)} left`;
    case 'ranked':
      return `ranked   ${event.order.length} bid(s)`;
    case 'award':
      return style.bold(`award    ${event.bid.agent} (cap ${formatAmount(event.cap)})`);
    case 'failed':
      return `failed   ${event.bid.agent}: ${event.reason} → next bidder`;
    case 'completed':
      return style.bold(`done     ${event.bid.agent} completed the task`);
    case 'rejected':
      return style.dim(`reject   ${event.bid.agent}: ${event.state}`);
    case 'exhausted':
      return `none     ${event.reason}`;
  }
}

/** The `cfp` verb. */
export const cfpCommand: Command = {
  name: 'cfp',
  summary: 'Contract Net: call for proposals, award the best bid, show the statement',
  usage: [
    'cfp --agents FILE --payer-key FILE [--skill TAG] [--deadline 5s] [--budget 1.00USD] [--choose cheapest] <text...>',
  ],
  flags: {
    agents: { type: 'string' },
    skill: { type: 'string' },
    deadline: { type: 'string' },
    budget: { type: 'string' },
    choose: { type: 'string' },
    'payer-key': { type: 'string' },
    payer: { type: 'string' },
  },
  flagHelp: [
    ['--agents FILE', 'JSON array of agent URLs to call'],
    ['--skill TAG', 'only agents with a skill tagged TAG'],
    ['--deadline D', 'how long bids are collected (default 5s)'],
    ['--budget AMT', 'total budget over every award, e.g. 1.00USD'],
    ['--choose P', `ranking: ${POLICIES.join(', ')} (default cheapest)`],
    ['--payer-key FILE', 'private JWK that signs the award (a2a card keygen --out FILE)'],
    ['--payer ID', 'the payer id the agents know your key by (default "cli")'],
  ],
  examples: [
    'cfp --skill translate --agents agents.json --deadline 5s --payer-key payer.jwk "hola"',
  ],
  async run({ positionals, values, out, signal }) {
    const agentsFile = stringFlag(values, 'agents');
    const keyFile = stringFlag(values, 'payer-key');
    if (agentsFile === undefined) throw new UsageError('missing --agents FILE');
    if (keyFile === undefined) throw new UsageError('missing --payer-key FILE');
    const agents = JSON.parse(await readFile(agentsFile, 'utf8')) as unknown;
    if (!Array.isArray(agents) || !agents.every((a) => typeof a === 'string')) {
      throw new UsageError('--agents: the file must hold a JSON array of URLs');
    }
    const choose = stringFlag(values, 'choose') ?? 'cheapest';
    if (!(POLICIES as readonly string[]).includes(choose)) {
      throw new UsageError(`--choose: one of ${POLICIES.join(', ')}`);
    }
    const budget = stringFlag(values, 'budget');
    const skill = stringFlag(values, 'skill');
    const key = await importSigningKey(JSON.parse(await readFile(keyFile, 'utf8')) as JWK);
    const net = contractNet({
      cfp: positionals.join(' '),
      contractors: agents,
      ...(skill !== undefined ? { skill: { tags: [skill] } } : {}),
      deadline: parseDuration(stringFlag(values, 'deadline') ?? '5s'),
      choose: choose as RankPolicy,
      ...(budget !== undefined ? { budget: parseAmount(budget) } : {}),
      signer: {
        payer: stringFlag(values, 'payer') ?? 'cli',
        key: key.key,
        alg: key.alg,
        kid: key.kid,
      },
      signal,
    });
    for await (const event of net) if (!out.json) out.line(cfpEventLine(event, out.style));
    const result = await net.result;
    if (out.json) out.jsonDoc(result);
    else if (result.statement)
      for (const line of statementLines(result.statement, out.style)) out.line(line);
    return result.winner ? EXIT.OK : EXIT.AGENT_ERROR;
  },
};
