/**
 * FIPA Contract Net over A2A (docs/extensions/delegation.md §2): a call for proposals to N
 * agents (found by their cards' skill tags), bids collected until a deadline (each bid is an
 * accounting-extension quote on the bidder's own task), ranked by a policy, one award (the signed
 * authorization of exactly that quote, bound by its digest, sent with the A2A 1.1 draft's
 * `ifGenerationMatch` on the bid task's generation when the contractor implements it), re-award to the next bidder when
 * the winner fails or times out, within a total budget; the other bidders' tasks are canceled.
 */
import { authorize, type PayerKey } from '../accounting/authorization.js';
import { requestQuote, sendAuthorized, withAccountingExtension } from '../client/accounting.js';
import { ACCOUNTING_EXTENSION } from '../accounting/extension.js';
import { statementOf } from '../accounting/record.js';
import {
  addAmounts,
  compareAmounts,
  subtractAmounts,
  type Amount,
} from '../accounting/quantities.js';
import type { Quote } from '../accounting/schemas.js';
import { A2AClient } from '../client/client.js';
import { createMessage } from '../core/parts.js';
import type { AgentCard, Message } from '../core/schemas/index.js';
import { EventQueue } from './event-queue.js';
import { rankBids, type RankPolicy } from './policies.js';
import type { Bid, ContractNetEvent, ContractNetResult } from './types.js';

/** Options of {@link contractNet}. */
export interface ContractNetOptions {
  /** The call for proposals: the task every contractor bids on. */
  cfp: string | Message;
  /** Contractor URLs (their cards are fetched) or clients already connected. */
  contractors: readonly (string | A2AClient)[];
  /** Only contractors with a skill carrying every one of these tags (and its id, if given). */
  skill?: { tags?: readonly string[]; id?: string };
  /** Milliseconds to collect bids; a bid that arrives later is not counted. */
  deadline: number;
  /** How to rank bids (default `'cheapest'`). */
  choose?: RankPolicy;
  /** Total budget over every award: bids above what remains are not awarded. */
  budget?: Amount;
  /** The payer's key that signs the award. */
  signer: PayerKey;
  /** The cap of an award (default the bid's own amount: exactly what was quoted). */
  capFor?: (quote: Quote) => Amount;
  /** Milliseconds an awarded contractor has to finish before the next bidder is awarded. */
  awardTimeout?: number;
  /** Seconds an award's authorization is valid (default 300). */
  expiresIn?: number;
  /** How to connect to a contractor URL (default `A2AClient.connect(url)`). */
  connect?: (url: string) => Promise<A2AClient>;
  signal?: AbortSignal;
}

/** A running Contract Net: iterate its events, await its result. */
export interface ContractNetRun extends AsyncIterable<ContractNetEvent> {
  readonly result: Promise<ContractNetResult>;
}

interface Contractor {
  bidder: string;
  client: A2AClient;
}

/** Starts a Contract Net; events stream as they happen. */
export function contractNet(options: ContractNetOptions): ContractNetRun {
  const queue = new EventQueue<ContractNetEvent>();
  const events: ContractNetEvent[] = [];
  const emit = (event: ContractNetEvent) => {
    events.push(event);
    queue.push(event);
  };
  const result = run(options, emit).then(
    (r) => {
      queue.close();
      return { ...r, events };
    },
    (error: unknown) => {
      queue.close();
      throw error;
    },
  );
  result.catch(() => undefined);
  return { result, [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() };
}

type Emit = (event: ContractNetEvent) => void;

async function run(
  options: ContractNetOptions,
  emit: Emit,
): Promise<Omit<ContractNetResult, 'events'>> {
  const deadline = timeoutSignal(options.deadline, options.signal);
  // One signal per contractor, all aborted by the deadline's one listener: 50 calls listening on
  // one signal would each add a listener to it (Node warns past 10).
  const callSignal = fanOut(deadline);
  const bids: Bid[] = [];
  const late: Promise<void>[] = [];
  let arrival = 0;
  const cfp =
    typeof options.cfp === 'string' ? createMessage('ROLE_USER', options.cfp) : options.cfp;
  const calls = options.contractors.map(async (entry) => {
    const bidder = typeof entry === 'string' ? entry : entry.card.name;
    const signal = callSignal();
    let client: A2AClient;
    try {
      client = typeof entry === 'string' ? await connectTo(options, entry, signal) : entry;
    } catch (error) {
      emit({ type: 'no-bid', bidder, reason: `no card: ${describe(error)}` });
      return;
    }
    const skill = matchingSkill(client.card, options.skill);
    if (skill === undefined) {
      emit({
        type: 'skipped',
        bidder,
        reason: 'no skill with the requested tags, or no accounting extension',
      });
      return;
    }
    emit({ type: 'discovered', bidder, card: client.card });
    emit({ type: 'cfp', bidder });
    const contractor: Contractor = { bidder, client };
    try {
      const asked = requestQuote(
        client,
        { ...cfp, messageId: `${cfp.messageId}-${bidder}` },
        { skill, signal },
      );
      // A bid that arrives after the deadline still made a task: reject it when it comes.
      asked.then(
        (q) => {
          if (deadline.aborted) late.push(reject(contractor, q.quote).then(() => undefined));
        },
        () => undefined,
      );
      const { quote, task } = await raceSignal(asked, signal);
      const bid: Bid = {
        bidder,
        agent: client.card.name,
        quote,
        arrival: arrival++,
        // spec dev-1.1 §3.2.7: 0 or absent means the server does not implement generations.
        ...(task.generation ? { generation: task.generation } : {}),
      };
      contractors.set(bid, contractor);
      bids.push(bid);
      emit({ type: 'bid', bid });
    } catch (error) {
      emit({
        type: 'no-bid',
        bidder,
        reason: deadline.aborted ? 'no bid before the deadline' : describe(error),
      });
    }
  });
  const contractors = new Map<Bid, Contractor>();
  await Promise.all(calls);

  let remaining = options.budget;
  let spent: Amount | undefined;
  const eligible = rankBids(bids, options.choose ?? 'cheapest');
  emit({ type: 'ranked', order: eligible.map((b) => b.bidder) });
  let winner: Bid | undefined;
  let won: Awaited<ReturnType<typeof sendAuthorized>> | undefined;
  const tried = new Set<Bid>();
  for (const bid of eligible) {
    if (options.signal?.aborted) break;
    const cap = options.capFor?.(bid.quote) ?? bid.quote.amount;
    if (remaining !== undefined && !fits(cap, remaining)) {
      emit({ type: 'over-budget', bid, remaining });
      continue;
    }
    tried.add(bid);
    const contractor = contractors.get(bid) as Contractor;
    emit({ type: 'award', bid, cap });
    try {
      const jws = await authorize(bid.quote, {
        cap,
        signer: options.signer,
        expiresIn: options.expiresIn ?? 300,
      });
      const signal = options.awardTimeout
        ? timeoutSignal(options.awardTimeout, options.signal)
        : options.signal;
      // The award applies to exactly the bid seen: a task that moved on since is refused with
      // TASK_GENERATION_MISMATCH before the agent runs (spec dev-1.1 §3.2.2).
      const sent = sendAuthorized(contractor.client, bid.quote, jws, {
        ...(signal ? { signal } : {}),
        ...(bid.generation !== undefined
          ? { configuration: { ifGenerationMatch: bid.generation } }
          : {}),
      });
      const task = signal ? await raceSignal(sent, signal) : await sent;
      const statement = statementOf(task);
      if (statement?.charged) {
        spent = spent ? addAmounts(spent, statement.charged) : statement.charged;
        if (remaining !== undefined) remaining = subtractAmounts(remaining, statement.charged);
      }
      if (task.status.state === 'TASK_STATE_COMPLETED') {
        emit({ type: 'completed', bid, task, statement });
        winner = bid;
        won = task;
        break;
      }
      emit({ type: 'failed', bid, reason: `the task ended ${task.status.state}`, task });
    } catch (error) {
      emit({ type: 'failed', bid, reason: describe(error) });
      await cancel(contractor, bid.quote.taskId);
    }
  }
  if (winner === undefined) emit({ type: 'exhausted', reason: 'no bidder completed the task' });
  // Everyone not awarded (or awarded and abandoned) ends CANCELED.
  await Promise.all(
    bids
      .filter((b) => b !== winner && !tried.has(b))
      .map(async (bid) => {
        const state = await reject(contractors.get(bid) as Contractor, bid.quote);
        emit({ type: 'rejected', bid, state });
      }),
  );
  await Promise.all(late);
  return {
    winner,
    task: won,
    statement: won ? statementOf(won) : undefined,
    bids,
    spent,
  };
}

/**
 * A signal aborted after `ms` or with `parent`. A plain timer and controller: signals made by
 * AbortSignal.timeout/any are held weakly and may never fire once unreferenced.
 */
function timeoutSignal(ms: number, parent: AbortSignal | undefined): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('deadline passed')), ms);
  parent?.addEventListener('abort', () => controller.abort(parent.reason), { once: true });
  controller.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  return controller.signal;
}

/** A maker of signals that all abort with `parent`, through one listener on it. */
function fanOut(parent: AbortSignal): () => AbortSignal {
  const children = new Set<AbortController>();
  parent.addEventListener(
    'abort',
    () => {
      for (const child of children) child.abort(parent.reason);
    },
    { once: true },
  );
  return () => {
    const child = new AbortController();
    if (parent.aborted) child.abort(parent.reason);
    else children.add(child);
    return child.signal;
  };
}

/** `promise`, or a rejection as soon as `signal` aborts. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('deadline passed'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('deadline passed'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function fits(cap: Amount, remaining: Amount): boolean {
  try {
    return compareAmounts(cap, remaining) <= 0;
  } catch {
    return false; // another asset than the budget's
  }
}

async function connectTo(
  options: ContractNetOptions,
  url: string,
  signal: AbortSignal,
): Promise<A2AClient> {
  if (options.connect) return options.connect(url);
  return A2AClient.connect(url, { signal });
}

/** The id of the card's skill that matches, when the card also declares accounting. */
function matchingSkill(card: AgentCard, wanted: ContractNetOptions['skill']): string | undefined {
  if (!card.capabilities.extensions?.some((e) => e.uri === ACCOUNTING_EXTENSION)) return undefined;
  const skill = card.skills.find(
    (s) =>
      (wanted?.id === undefined || s.id === wanted.id) &&
      (wanted?.tags ?? []).every((t) => s.tags.includes(t)),
  );
  return skill?.id;
}

async function reject(contractor: Contractor, quote: Quote): Promise<string> {
  return cancel(contractor, quote.taskId);
}

async function cancel(contractor: Contractor, taskId: string): Promise<string> {
  try {
    const task = await contractor.client.cancelTask({ id: taskId }, withAccountingExtension());
    return task.status.state;
  } catch (error) {
    return `not canceled: ${describe(error)}`;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
