/**
 * The `accounting` option of `createAgent` (src/server/agent.ts): an agent metered and priced by
 * the accounting extension (docs/extensions/accounting.md). It declares the extension and its
 * prices in the card, answers a priced request with a quote (INPUT_REQUIRED), runs the agent only
 * once a valid authorization covers the quote, meters the run (server clock, time parked in
 * INPUT_REQUIRED / AUTH_REQUIRED excluded; `task.usage(…)` for energy, units and steps) and writes
 * the statement on the final status message and update (src/accounting/record.ts says where the
 * record lives). Plugged in by wrapping `execute`: bindings and stores are unchanged.
 */
import { dataPart } from '../core/parts.js';
import { isInterrupted, isTerminal } from '../core/task-state.js';
import type { Message, TaskStatusUpdateEvent } from '../core/schemas/index.js';
import { verifyAuthorization, AuthorizationError } from '../accounting/authorization.js';
import {
  ACCOUNTING_EXTENSION,
  accountingExtension,
  accountingMetadata,
} from '../accounting/extension.js';
import { Meter } from '../accounting/meter.js';
import type { AccountingOptions, SkillPricing } from '../accounting/options.js';
import { newQuote } from '../accounting/quote.js';
import { recordOf, type AccountingRecord } from '../accounting/record.js';
import { buildStatement } from '../accounting/statement.js';
import type { AccountingParams, Quote, Statement } from '../accounting/schemas.js';
import { formatAmount } from '../accounting/quantities.js';
import type { Agent, AgentEvent, ExecutionContext } from './agent.js';
import { TaskHandle } from './task-handle.js';
import { withFields } from '../core/with-fields.js';

type StatusEvent = Extract<AgentEvent, { statusUpdate: unknown }>;

/** `agent` with metering, quotes, authorizations and statements; `agent.accounting` is consumed. */
export function withAccounting(agent: Agent & { accounting: AccountingOptions }): Agent {
  const { accounting, ...fields } = agent;
  const rest: Omit<Agent, 'execute' | 'accounting'> = { ...fields };
  delete (rest as Partial<Agent>).execute;
  const execute = (context: ExecutionContext) => agent.execute(context);
  const skills = skillTable(agent.card.skills[0]?.id, accounting);
  const params: AccountingParams = {
    skills: Object.fromEntries(
      Object.entries(skills).map(([id, s]) => [
        id,
        s.energy ? { price: s.price, energy: s.energy } : { price: s.price },
      ]),
    ),
  };
  const extensions = [
    ...(rest.card.capabilities?.extensions ?? []).filter((e) => e.uri !== ACCOUNTING_EXTENSION),
    accountingExtension(params, accounting.required ?? true),
  ];
  const clock = accounting.clock ?? (() => performance.now());
  const now = accounting.now ?? (() => Date.now());
  const priced = Object.keys(skills);
  // The only priced skill is the default of a request that names none, when it is the agent's
  // only skill or the request uses the extension; an agent with unpriced skills too serves plain
  // messages unpriced.
  const onlyPriced = priced.length === 1 ? priced[0] : undefined;
  const soleSkill = rest.card.skills.length <= 1;

  async function* run(context: ExecutionContext): AsyncIterable<AgentEvent> {
    const record: AccountingRecord = { ...(context.current ? recordOf(context.current) : {}) };
    const asked = accountingMetadata(context.message.metadata);
    const request = asked ?? {};
    const skillId =
      record.quote?.skill ??
      (typeof request.skill === 'string' ? request.skill : undefined) ??
      (soleSkill || asked !== undefined ? onlyPriced : undefined);
    const pricing = skillId === undefined ? undefined : skills[skillId];
    const update = (extra: AccountingRecord) => ({
      [ACCOUNTING_EXTENSION]: withFields(record, extra),
    });

    if (pricing && skillId !== undefined && !record.authorization) {
      if (!record.quote || new Date(record.quote.expiresAt).getTime() <= now()) {
        const quote = newQuote({
          taskId: context.task.id,
          skill: skillId,
          pricing,
          message: context.message,
          units: typeof request.units === 'string' ? request.units : undefined,
          ttlSeconds: accounting.quoteTtlSeconds ?? 600,
          now: now(),
        });
        const offer = update({ quote, requestMessageId: context.message.messageId });
        yield paused(context, [{ text: quoteText(quote) }, dataPart(quote)], offer);
        return;
      }
      const jws = typeof request.authorization === 'string' ? request.authorization : undefined;
      const used = record.used ?? [];
      try {
        if (jws === undefined)
          throw new AuthorizationError('malformed', 'no authorization was sent');
        const claims = await verifyAuthorization(jws, {
          keys: accounting.payers,
          quote: record.quote,
          taskId: context.task.id,
          used: (jti) => used.includes(jti),
          now: now(),
        });
        record.used = [...used, claims.jti];
        record.authorization = { jti: claims.jti, iss: claims.iss, cap: claims.cap };
        delete record.refusal;
      } catch (error) {
        if (!(error instanceof AuthorizationError)) throw error;
        const refusal = {
          reason: error.reason,
          message: `Authorization refused (${error.reason}): ${error.message}. Nothing was charged.`,
        };
        yield paused(context, refusal.message, update({ refusal }));
        return;
      }
    }

    const resumed = record.meter !== undefined;
    const message =
      (!resumed && record.requestMessageId !== undefined
        ? context.current?.history?.find((m) => m.messageId === record.requestMessageId)
        : undefined) ?? context.message;
    const meter = new Meter(record.meter, clock);
    const task = new TaskHandle(context.task.id, context.task.contextId, (usage) =>
      meter.report(usage),
    );
    const inner: ExecutionContext = {
      message,
      task,
      resumed,
      current: context.current,
      recovered: context.recovered,
      call: context.call,
      configuration: context.configuration,
      metadata: context.metadata,
      get signal() {
        return context.signal;
      },
    };
    meter.start();
    let first = true;
    for await (const event of execute(inner)) {
      if (first && !('statusUpdate' in event) && !('artifactUpdate' in event)) {
        // A stateless Message reply: no task, nothing to account.
        yield event;
        return;
      }
      first = false;
      if (!('statusUpdate' in event)) {
        yield event;
        continue;
      }
      const state = event.statusUpdate.status.state;
      if (!isTerminal(state) && !isInterrupted(state)) {
        yield event;
        continue;
      }
      // Paused or finished: the run time so far is counted, the record goes on the status.
      meter.stop();
      const extra: AccountingRecord = { meter: meter.state() };
      if (isTerminal(state)) {
        extra.statement = buildStatement({
          taskId: context.task.id,
          record,
          meter,
          pricing,
          skill: skillId,
          finalState: state,
        });
      }
      yield recorded(context, event, update(extra), extra.statement);
      if (!isTerminal(state)) meter.start();
    }
  }

  return {
    ...rest,
    card: { ...rest.card, capabilities: { ...rest.card.capabilities, extensions } },
    execute: run,
  };
}

function skillTable(
  firstSkill: string | undefined,
  accounting: AccountingOptions,
): Record<string, SkillPricing> {
  const table: Record<string, SkillPricing> = { ...accounting.skills };
  if (accounting.price) {
    const entry: SkillPricing = { price: accounting.price };
    if (accounting.energy) entry.energy = accounting.energy;
    if (accounting.estimate) entry.estimate = accounting.estimate;
    table[firstSkill ?? 'default'] = entry;
  }
  return table;
}

function quoteText(quote: Quote): string {
  return `Quote ${quote.quoteId}: ${formatAmount(quote.amount)} for skill ${quote.skill} (about ${quote.duration.ms} ms, ${quote.energy.joules} J estimated), valid until ${quote.expiresAt}. Send an authorization to run it.`;
}

function statementText(statement: Statement): string {
  const charged = statement.charged ? formatAmount(statement.charged) : 'nothing';
  return `Statement: ${charged} charged (${statement.outcome}), ${statement.duration.ms} ms, ${statement.energy.joules} J ${statement.energy.method}.`;
}

/** INPUT_REQUIRED with the record on the status message and on the update. */
function paused(
  context: ExecutionContext,
  content: string | Message['parts'],
  metadata: Record<string, unknown>,
): AgentEvent {
  const event = context.task.inputRequired(content);
  return recorded(context, event, metadata, undefined);
}

/**
 * `event` with the record in its status message's metadata (a message is added when the agent
 * gave none) and in the update's own metadata.
 */
function recorded(
  context: ExecutionContext,
  event: StatusEvent,
  metadata: Record<string, unknown>,
  statement: Statement | undefined,
): StatusEvent {
  const update: TaskStatusUpdateEvent = event.statusUpdate;
  const base =
    update.status.message ??
    context.task.message(
      statement ? statementText(statement) : `The task is ${update.status.state}.`,
    );
  const message = withFields(base, { metadata: withFields(base.metadata, metadata) });
  return {
    statusUpdate: withFields(update, {
      status: withFields(update.status, { message }),
      metadata: withFields(update.metadata, metadata),
    }),
  };
}
