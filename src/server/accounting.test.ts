/**
 * The accounting extension on a real server over loopback, JSON-RPC and HTTP+JSON
 * (docs/extensions/accounting.md §3–§6; spec §4.6 extension activation): quote, authorization,
 * metering, statement, refusals, and statements kept durably in a SQLite file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../client/client.js';
import { AgentCardResolver } from '../client/card-resolver.js';
import { textOf, userMessage } from '../core/parts.js';
import { serve, type ServeResult } from '../node/serve.js';
import { generateSigningKey } from '../security/signing-keys.js';
import { SqliteTaskStore } from '../stores/sqlite/task-store.js';
import { authorize, signClaims, quoteDigest, type PayerKey } from '../accounting/authorization.js';
import {
  accountingOf,
  requestQuote,
  sendAuthorized,
  withAccountingExtension,
} from '../client/accounting.js';
import { ACCOUNTING_EXTENSION } from '../accounting/extension.js';
import { statementOf } from '../accounting/record.js';
import { amount } from '../accounting/quantities.js';
import { listStatements } from '../client/accounting-statements.js';
import { StatementSchema } from '../accounting/schemas.js';
import { createAgent, type Agent } from './agent.js';
import { newId } from '../core/ids.js';

let clockMs = 0;
let runs = 0;
const payer = await generateSigningKey('ES256');
const stranger = await generateSigningKey('ES256');
const signer: PayerKey = { payer: 'alice', key: payer.key, alg: payer.alg, kid: payer.kid };
const forger: PayerKey = { payer: 'alice', key: stranger.key, alg: stranger.alg, kid: payer.kid };

const definition: Agent = {
  card: {
    name: 'Priced translator',
    description: 'Translates for a fee',
    version: '1.0.0',
    skills: [
      { id: 'translate', name: 'Translate', description: 'Translate text', tags: ['translate'] },
    ],
  },
  accounting: {
    price: { flat: amount('0.05', 'USD'), perUnit: amount('0.01', 'USD'), unit: 'word' },
    energy: { perTaskJoules: '2', perSecondJoules: '10' },
    estimate: (message) => ({ durationMs: 200, units: String(textOf(message).split(' ').length) }),
    payers: { alice: payer.publicKey },
    clock: () => clockMs,
  },
  async *execute({ message, task, resumed }) {
    runs += 1;
    yield task.working();
    const text = textOf(message);
    if (text.startsWith('ask') && !resumed) {
      clockMs += 30;
      yield task.inputRequired('Which dialect?');
      return;
    }
    const words = text === 'overcharge' ? 50 : text.split(' ').length;
    clockMs += 120;
    task.usage({ step: 'translate', joules: '1.5', units: String(words), durationMs: 120 });
    yield task.artifact(`translated ${words} words`);
    if (text === 'fail') {
      yield task.failed('could not translate');
      return;
    }
    yield task.completed();
  },
};

const dir = mkdtempSync(join(tmpdir(), 'a2a-accounting-'));
const dbPath = join(dir, 'tasks.db');
let served: ServeResult;
beforeAll(async () => {
  served = await serve(createAgent(definition), {
    logger: null,
    store: new SqliteTaskStore({ path: dbPath }),
  });
});
afterAll(async () => {
  await served.close();
});

describe.each(['JSONRPC', 'HTTP+JSON'])('accounting over %s', (binding) => {
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.connect(served.url, {
      preferredBinding: binding,
      cardResolver: new AgentCardResolver(),
    });
  });

  it('declares the extension as required, with the skill prices, in the card (§1, spec §4.6)', () => {
    const ext = client.card.capabilities.extensions?.find((e) => e.uri === ACCOUNTING_EXTENSION);
    expect(ext?.required).toBe(true);
    expect(ext?.params).toMatchObject({
      skills: { translate: { price: { flat: { value: '0.05' } } } },
    });
  });

  it('refuses a caller that does not activate the required extension (spec §4.6.2)', async () => {
    await expect(client.sendMessage({ message: userMessage('hello world') })).rejects.toMatchObject(
      {
        code: 'EXTENSION_SUPPORT_REQUIRED',
      },
    );
  });

  it('quotes in INPUT_REQUIRED with a data part and metadata, without running the agent (§3)', async () => {
    const before = runs;
    const { quote, task } = await requestQuote(client, userMessage('hello big world'));
    expect(runs).toBe(before);
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(task.status.message?.parts.some((p) => p.data !== undefined)).toBe(true);
    expect(quote.amount).toEqual({ value: '0.08', asset: 'USD', decimals: 2 });
    expect(quote.energy).toEqual({ joules: '4', method: 'estimated' });
    expect(quote.taskId).toBe(task.id);
  });

  it('runs an authorized task and states quote against actual, excluding parked time (§5)', async () => {
    const { quote } = await requestQuote(client, userMessage('ask me'));
    const jws = await authorize(quote, { cap: amount('0.10', 'USD'), signer });
    const parked = await sendAuthorized(client, quote, jws);
    expect(parked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    clockMs += 60_000; // parked for a minute: not counted
    const done = await client.sendMessage(
      { message: { ...userMessage('north'), taskId: quote.taskId } },
      { headers: { 'A2A-Extensions': ACCOUNTING_EXTENSION } },
    );
    if (!('task' in done)) throw new Error('expected the task');
    const statement = statementOf(done.task);
    expect(StatementSchema.parse(statement)).toEqual(statement);
    expect(statement).toMatchObject({
      outcome: 'charged',
      duration: { ms: 150 },
      energy: { joules: '1.5', method: 'measured' },
      units: '1',
      computed: { value: '0.06', asset: 'USD' },
      charged: { value: '0.06', asset: 'USD' },
      authorization: { iss: 'alice', cap: { value: '0.10' } },
      steps: [{ name: 'translate', units: '1', duration: { ms: 120 } }],
      finalState: 'TASK_STATE_COMPLETED',
    });
    expect(statement?.quote?.quoteId).toBe(quote.quoteId);
    // Where the spec allows it: on the final status message (spec §4.1.2, §4.1.4), not merged
    // from the update's own metadata into Task.metadata (spec §4.2.1).
    expect(done.task.status.message?.metadata?.[ACCOUNTING_EXTENSION]).toMatchObject({ statement });
    expect(done.task.metadata?.[ACCOUNTING_EXTENSION]).toBeUndefined();
    const got = await client.getTask({ id: quote.taskId }, withAccountingExtension());
    expect(statementOf(got)).toEqual(statement);
  });

  it('refuses a charge above the cap: nothing charged, the statement says why (§5.2)', async () => {
    const { quote } = await requestQuote(client, userMessage('overcharge'));
    const jws = await authorize(quote, { cap: quote.amount, signer });
    const task = await sendAuthorized(client, quote, jws);
    expect(statementOf(task)).toMatchObject({
      outcome: 'refused',
      computed: { value: '0.55' },
      charged: { value: '0.00' },
      refusal: expect.stringContaining('exceeds the authorized cap'),
    });
  });

  it('charges nothing for a task that fails after the award (§5.2)', async () => {
    const { quote } = await requestQuote(client, userMessage('fail'));
    const jws = await authorize(quote, { cap: quote.amount, signer });
    const task = await sendAuthorized(client, quote, jws);
    expect(statementOf(task)).toMatchObject({ outcome: 'void', charged: { value: '0.00' } });
  });

  const refusals: [
    string,
    (q: Awaited<ReturnType<typeof requestQuote>>['quote']) => Promise<string>,
    string,
  ][] = [
    [
      'forged (signed by an untrusted key)',
      (q) => authorize(q, { cap: q.amount, signer: forger }),
      'bad-signature',
    ],
    [
      'expired',
      (q) => authorize(q, { cap: q.amount, signer, now: Date.now() - 3_600_000, expiresIn: 60 }),
      'expired',
    ],
    [
      'for another task',
      (q) => authorize({ ...q, taskId: newId() }, { cap: q.amount, signer }),
      'wrong-task',
    ],
    [
      'for another quote',
      (q) => authorize({ ...q, amount: amount('0.01', 'USD') }, { cap: q.amount, signer }),
      'wrong-quote',
    ],
    [
      'for a lower amount than quoted',
      async (q) => {
        const iat = Math.floor(Date.now() / 1000);
        return signClaims(
          {
            jti: newId(),
            iss: 'alice',
            taskId: q.taskId,
            quoteId: q.quoteId,
            quoteDigest: await quoteDigest(q),
            cap: amount('0.01', 'USD'),
            iat,
            exp: iat + 60,
          },
          signer,
        );
      },
      'cap-too-low',
    ],
    ['garbage', () => Promise.resolve('not.a.jws'), 'malformed'],
  ];
  it.each(refusals)(
    'refuses an authorization %s: the agent does not run, nothing charged (§4.3)',
    async (_, make, reason) => {
      const { quote } = await requestQuote(client, userMessage('hello'));
      const before = runs;
      const task = await sendAuthorized(client, quote, await make(quote));
      expect(runs).toBe(before);
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(accountingOf(task)?.refusal?.reason).toBe(reason);
      expect(statementOf(task)).toBeUndefined();
    },
  );

  it('refuses an authorization replayed on another task or on its finished task (§4.3)', async () => {
    const first = await requestQuote(client, userMessage('one'));
    const jws = await authorize(first.quote, { cap: first.quote.amount, signer });
    await sendAuthorized(client, first.quote, jws);
    const second = await requestQuote(client, userMessage('two'));
    const replay = await sendAuthorized(client, second.quote, jws);
    expect(accountingOf(replay)?.refusal?.reason).toBe('wrong-task');
    await expect(sendAuthorized(client, first.quote, jws)).rejects.toMatchObject({
      code: 'UNSUPPORTED_OPERATION',
    });
  });
});

describe('statements are durable and listable (§6)', () => {
  it('lists the statements of a context from the SQLite store after a restart', async () => {
    const client = await A2AClient.connect(served.url, { cardResolver: new AgentCardResolver() });
    const contextId = newId();
    const { quote } = await requestQuote(client, { ...userMessage('durable words'), contextId });
    await sendAuthorized(client, quote, await authorize(quote, { cap: quote.amount, signer }));
    await served.close();
    served = await serve(createAgent(definition), {
      logger: null,
      store: new SqliteTaskStore({ path: dbPath }),
    });
    const again = await A2AClient.connect(served.url, { cardResolver: new AgentCardResolver() });
    const rows = await listStatements(again, { contextId });
    expect(rows.map((r) => [r.taskId, r.statement.outcome, r.statement.charged?.value])).toEqual([
      [quote.taskId, 'charged', '0.07'],
    ]);
  });
});
