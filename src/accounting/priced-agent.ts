/**
 * `createPricedAgent`: an agent metered and priced by the accounting extension
 * (docs/extensions/accounting.md). It declares the extension and its prices in the card, answers
 * a priced request with a quote (INPUT_REQUIRED), runs the agent only once a valid authorization
 * covers the quote, and writes the statement on the final status update (and so on the Task, in
 * the store). Plugged in by wrapping `execute`: the server, bindings and stores are unchanged.
 */
import { dataPart } from '../core/parts.js';
import { isTerminal } from '../core/task-state.js';
import type { Task, TaskState } from '../core/schemas/index.js';
import type { Agent, AgentEvent, ExecutionContext } from '../server/agent.js';
import { verifyAuthorization, AuthorizationError, type PayerKeys } from './authorization.js';
import { ACCOUNTING_EXTENSION, accountingExtension, accountingMetadata } from './extension.js';
import { AccountedTaskHandle, Meter, type MeterState } from './meter.js';
import { newQuote } from './quote.js';
import { buildStatement } from './statement.js';
import type {
  AccountingParams,
  EnergyEstimate,
  PriceSchedule,
  Quote,
  Statement,
} from './schemas.js';
import { formatAmount } from './quantities.js';

/** Pricing of one skill. */
export interface SkillPricing {
  price: PriceSchedule;
  energy?: EnergyEstimate;
  /** What the quote assumes for a message: its expected run time and units of output. */
  estimate?: (message: ExecutionContext['message']) => { durationMs: number; units?: string };
  /** Terms the quote carries (refunds, quality, limits). */
  terms?: string;
}

/** The `accounting` option of {@link createPricedAgent}. */
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

/** What a priced agent's `execute` receives: `task.usage(…)` reports energy, units and steps. */
export interface PricedExecutionContext extends ExecutionContext {
  readonly task: AccountedTaskHandle;
  /**
   * True when this execution answers the agent's own INPUT_REQUIRED / AUTH_REQUIRED; false on
   * the first run (for a priced skill: the run the authorization started, whose `message` is the
   * message that asked the quote).
   */
  readonly resumed: boolean;
}

/** A priced agent definition. */
export interface PricedAgent extends Omit<Agent, 'execute'> {
  accounting: AccountingOptions;
  execute(context: PricedExecutionContext): AsyncIterable<AgentEvent>;
}

/** What the extension keeps in `Task.metadata[ACCOUNTING_EXTENSION]`. */
export interface AccountingRecord {
  quote?: Quote;
  /** The messageId of the message that asked the quote: what the authorized run works on. */
  requestMessageId?: string;
  authorization?: { jti: string; iss: string; cap: Quote['amount'] };
  /** Every authorization id presented on this task (replay protection, durable in the store). */
  used?: string[];
  meter?: MeterState;
  refusal?: { reason: string; message: string };
  statement?: Statement;
}

const INTERRUPTED: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

/** The agent with metering, quotes, authorizations and statements (docs/extensions/accounting.md). */
export function createPricedAgent(definition: PricedAgent): Agent {
  const { accounting, ...agent } = omitExecute(definition);
  const execute = (context: PricedExecutionContext) => definition.execute(context);
  const skills = skillTable(definition);
  const params: AccountingParams = {
    skills: Object.fromEntries(
      Object.entries(skills).map(([id, s]) => [
        id,
        s.energy ? { price: s.price, energy: s.energy } : { price: s.price },
      ]),
    ),
  };
  const extensions = [
    ...(agent.card.capabilities?.extensions ?? []).filter((e) => e.uri !== ACCOUNTING_EXTENSION),
    accountingExtension(params, accounting.required ?? true),
  ];
  const clock = accounting.clock ?? (() => performance.now());
  const now = accounting.now ?? (() => Date.now());
  const priced = Object.keys(skills);
  // The only priced skill is the default of a request that names none, when it is the agent's
  // only skill or the request uses the extension; an agent with unpriced skills too serves plain
  // messages unpriced.
  const onlyPriced = priced.length === 1 ? priced[0] : undefined;
  const soleSkill = agent.card.skills.length <= 1;

  async function* run(context: ExecutionContext): AsyncIterable<AgentEvent> {
    const record = (accountingMetadata(context.current?.metadata) ?? {}) as AccountingRecord;
    const asked = accountingMetadata(context.message.metadata);
    const request = asked ?? {};
    const skillId =
      record.quote?.skill ??
      (typeof request.skill === 'string' ? request.skill : undefined) ??
      (soleSkill || asked !== undefined ? onlyPriced : undefined);
    const pricing = skillId === undefined ? undefined : skills[skillId];
    const update = (extra: AccountingRecord) => ({
      [ACCOUNTING_EXTENSION]: { ...record, ...extra },
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
        const asked = { quote, requestMessageId: context.message.messageId };
        yield status(context, 'TASK_STATE_INPUT_REQUIRED', quoteText(quote), update(asked), quote);
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
        yield status(context, 'TASK_STATE_INPUT_REQUIRED', refusal.message, update({ refusal }));
        return;
      }
    }

    const resumed = record.meter !== undefined;
    const message =
      (!resumed && record.requestMessageId !== undefined
        ? context.current?.history?.find((m) => m.messageId === record.requestMessageId)
        : undefined) ?? context.message;
    const meter = new Meter(record.meter, clock);
    const task = new AccountedTaskHandle(context.task, meter);
    const inner: PricedExecutionContext = {
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
      if (isTerminal(state) || INTERRUPTED.has(state)) {
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
        const { statusUpdate } = event;
        yield {
          statusUpdate: {
            ...statusUpdate,
            metadata: { ...statusUpdate.metadata, ...update(extra) },
          },
        };
        if (!isTerminal(state)) meter.start();
        continue;
      }
      yield event;
    }
  }

  return {
    ...agent,
    card: { ...agent.card, capabilities: { ...agent.card.capabilities, extensions } },
    execute: run,
  };
}

function skillTable(definition: PricedAgent): Record<string, SkillPricing> {
  const { accounting, card } = definition;
  const table: Record<string, SkillPricing> = { ...accounting.skills };
  if (accounting.price) {
    const id = card.skills[0]?.id ?? 'default';
    const entry: SkillPricing = { price: accounting.price };
    if (accounting.energy) entry.energy = accounting.energy;
    if (accounting.estimate) entry.estimate = accounting.estimate;
    table[id] = entry;
  }
  return table;
}

function quoteText(quote: Quote): string {
  return `Quote ${quote.quoteId}: ${formatAmount(quote.amount)} for skill ${quote.skill} (about ${quote.duration.ms} ms, ${quote.energy.joules} J estimated), valid until ${quote.expiresAt}. Send an authorization to run it.`;
}

function status(
  context: ExecutionContext,
  state: TaskState,
  text: string,
  metadata: Record<string, unknown>,
  quote?: Quote,
): AgentEvent {
  const event = context.task.status(state, quote ? [{ text }, dataPart(quote)] : text);
  return { statusUpdate: { ...event.statusUpdate, metadata } };
}

/** The statement on a finished task, if the accounting extension wrote one. */
export function statementOf(task: Pick<Task, 'metadata'>): Statement | undefined {
  return (accountingMetadata(task.metadata) as AccountingRecord | undefined)?.statement;
}

/** The quote a task in INPUT_REQUIRED offers, if any. */
export function quoteOf(task: Pick<Task, 'metadata'>): Quote | undefined {
  return (accountingMetadata(task.metadata) as AccountingRecord | undefined)?.quote;
}

function omitExecute(definition: PricedAgent): Omit<PricedAgent, 'execute'> {
  const copy: Partial<PricedAgent> = { ...definition };
  delete copy.execute;
  return copy as Omit<PricedAgent, 'execute'>;
}
