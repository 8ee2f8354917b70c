/**
 * Contract Net over real agents on loopback (docs/extensions/delegation.md §2): bidders with
 * different prices and speeds, one that never bids, one that fails after the award, one that
 * hangs after it, one over the budget, one whose tags do not match, one that charges above the
 * cap; the losers' tasks end CANCELED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from 'a2a-kit/client';
import { amount, withAccountingExtension, type PayerKey } from 'a2a-kit/accounting';
import { contractNet, rankBids, type Bid, type ContractNetEvent } from 'a2a-kit/delegation';
import type { ServeResult } from 'a2a-kit/node';
import { generateSigningKey } from 'a2a-kit/security';
import { startContractor, type ContractorSpec } from './contractors.js';

const key = await generateSigningKey('ES256');
const signer: PayerKey = { payer: 'buyer', key: key.key, alg: key.alg, kid: key.kid };

const specs: ContractorSpec[] = [
  { name: 'steady', price: '0.05', estimateMs: 2000 },
  { name: 'quick', price: '0.08', estimateMs: 300 },
  { name: 'flaky', price: '0.03', estimateMs: 900, behaviour: 'fail' },
  { name: 'stuck', price: '0.01', estimateMs: 800, behaviour: 'hang' },
  { name: 'silent', price: '0.02', estimateMs: 100, behaviour: 'silent' },
  { name: 'luxury', price: '5.00', estimateMs: 50 },
  { name: 'painter', price: '0.01', estimateMs: 10, tags: ['paint'] },
];
const servers = new Map<string, ServeResult>();

beforeAll(async () => {
  for (const spec of specs)
    servers.set(spec.name, await startContractor(spec, { buyer: key.publicKey }));
});
afterAll(async () => {
  for (const s of servers.values()) await s.close();
});

const url = (name: string) => (servers.get(name) as ServeResult).url;

describe('Contract Net (docs/extensions/delegation.md §2)', () => {
  it('awards the cheapest bid, re-awards past a hang and a failure, rejects the rest', async () => {
    const net = contractNet({
      cfp: 'translate: hello world',
      contractors: specs.map((s) => url(s.name)),
      skill: { tags: ['translate'] },
      deadline: 3000,
      choose: 'cheapest',
      budget: amount('1.00', 'USD'),
      signer,
      awardTimeout: 1500,
    });
    const seen: ContractNetEvent[] = [];
    for await (const event of net) seen.push(event);
    const result = await net.result;
    expect(result.events).toEqual(seen);

    const of = (type: ContractNetEvent['type']) => seen.filter((e) => e.type === type);
    const bidder = (e: ContractNetEvent) =>
      'bid' in e ? e.bid.bidder : 'bidder' in e ? e.bidder : '';
    expect(of('skipped').map(bidder)).toEqual([url('painter')]);
    expect(of('no-bid').map(bidder)).toEqual([url('silent')]);
    expect(of('ranked')).toEqual([
      { type: 'ranked', order: ['stuck', 'flaky', 'steady', 'quick', 'luxury'].map(url) },
    ]);
    expect(of('award').map(bidder)).toEqual(['stuck', 'flaky', 'steady'].map(url));
    expect(of('failed').map(bidder)).toEqual(['stuck', 'flaky'].map(url));
    expect(of('over-budget').map(bidder)).toEqual([]); // never reached: steady completed first
    expect(result.winner?.bidder).toBe(url('steady'));
    expect(result.statement).toMatchObject({ outcome: 'charged', charged: { value: '0.05' } });
    expect(result.spent).toEqual(amount('0.05', 'USD'));
    expect(of('rejected').map(bidder).sort()).toEqual(['luxury', 'quick'].map(url).sort());

    // The losers' tasks ended CANCELED; the failed and hung ones are not left running.
    for (const name of ['quick', 'luxury', 'stuck', 'flaky']) {
      const bid = result.bids.find((b) => b.bidder === url(name)) as Bid;
      const client = await A2AClient.connect(url(name));
      const task = await client.getTask({ id: bid.quote.taskId }, withAccountingExtension());
      expect([name, task.status.state]).toEqual([
        name,
        name === 'flaky' ? 'TASK_STATE_FAILED' : 'TASK_STATE_CANCELED',
      ]);
    }
  }, 30_000);

  it('does not award a bid above the remaining budget', async () => {
    const result = await contractNet({
      cfp: 'translate',
      contractors: [url('luxury')],
      deadline: 3000,
      budget: amount('1.00', 'USD'),
      signer,
    }).result;
    expect(result.events.map((e) => e.type)).toEqual([
      'discovered',
      'cfp',
      'bid',
      'ranked',
      'over-budget',
      'exhausted',
      'rejected',
    ]);
    expect(result.winner).toBeUndefined();
  });

  it('a contractor charging above the cap is refused: completed, nothing charged', async () => {
    const greedy = await startContractor(
      { name: 'greedy', price: '0.02', estimateMs: 10, behaviour: 'overcharge' },
      { buyer: key.publicKey },
    );
    try {
      const result = await contractNet({
        cfp: 'x',
        contractors: [greedy.url],
        deadline: 3000,
        signer,
      }).result;
      expect(result.statement).toMatchObject({
        outcome: 'refused',
        charged: { value: '0.00' },
        refusal: expect.stringContaining('exceeds the authorized cap'),
      });
      expect(result.spent).toEqual(amount('0.00', 'USD'));
    } finally {
      await greedy.close();
    }
  });
});

describe('the award applies to exactly the bid seen (A2A 1.1 draft generations)', () => {
  it('refuses the award on a bid task that moved on, and awards the next bidder', async () => {
    const drifter = await startContractor(
      { name: 'drifter', price: '0.01', estimateMs: 10, behaviour: 'drift' },
      { buyer: key.publicKey },
    );
    try {
      const result = await contractNet({
        cfp: 'translate: hi',
        // silent never bids: the award waits for the deadline, after the drifter moved on
        contractors: [drifter.url, url('steady'), url('silent')],
        deadline: 800,
        signer,
      }).result;
      const drifted = result.bids.find((b) => b.bidder === drifter.url) as Bid;
      expect(drifted.generation).toBeGreaterThan(1); // the generation of the bid as seen
      const failed = result.events.find((e) => e.type === 'failed');
      expect(failed).toMatchObject({ bid: { bidder: drifter.url } });
      expect(failed && 'reason' in failed ? failed.reason : '').toMatch(/generation mismatch/i);
      expect(result.winner?.bidder).toBe(url('steady'));
      // The drifter never ran: nothing charged, its task canceled.
      const client = await A2AClient.connect(drifter.url);
      const task = await client.getTask({ id: drifted.quote.taskId }, withAccountingExtension());
      expect(task.status.state).toBe('TASK_STATE_CANCELED');
      expect(result.spent).toEqual(amount('0.05', 'USD'));
    } finally {
      await drifter.close();
    }
  });
});

describe('ranking policies', () => {
  const bid = (name: string, price: string, ms: number, joules: string, arrival: number): Bid => ({
    bidder: name,
    agent: name,
    arrival,
    quote: {
      quoteId: name,
      taskId: name,
      skill: 's',
      amount: amount(price, 'USD'),
      duration: { ms },
      energy: { joules, method: 'estimated' },
      price: {},
      expiresAt: '2100-01-01T00:00:00Z',
    },
  });
  const bids = [
    bid('a', '0.10', 100, '9', 0),
    bid('b', '0.05', 900, '5', 1),
    bid('c', '0.07', 300, '1', 2),
  ];
  const names = (list: Bid[]) => list.map((b) => b.bidder);

  it.each([
    ['cheapest', ['b', 'c', 'a']],
    ['fastest', ['a', 'c', 'b']],
    ['least-energy', ['c', 'b', 'a']],
  ] as const)('%s', (policy, order) => {
    expect(names(rankBids(bids, policy))).toEqual(order);
  });

  it('weighted adds integer ranks (ties keep arrival order)', () => {
    expect(names(rankBids(bids, { weights: { amount: 1, duration: 1 } }))).toEqual(['a', 'b', 'c']);
    expect(names(rankBids(bids, { weights: { amount: 2, duration: 1 } }))).toEqual(['b', 'c', 'a']);
    expect(names(rankBids(bids, { weights: { energy: 3, amount: 1 } }))).toEqual(['c', 'b', 'a']);
  });
});
