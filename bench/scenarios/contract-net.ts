/**
 * Contract Net with 50 contractors (issue 15, docs/extensions/delegation.md §2): 50 real
 * loopback priced agents in one child process bid with answers spread over 500 ms; the manager
 * (this process) discovers them from their cards, collects the bids, awards the cheapest with a
 * signed authorization (ifGenerationMatch on the bid's generation), waits for its statement and
 * cancels the other 49. Reported: total time, the arrival of the slowest counted bid, and the
 * overhead = total − slowest bid, checked against 2 s.
 */
import { contractNet } from '../../src/delegation/index.js';
import type { PayerKey } from '../../src/accounting/index.js';
import { exportPrivateJwk, generateSigningKey } from '../../src/security/index.js';
import { publicPart } from '../../src/security/signing-keys.js';
import { Child } from '../proc.js';
import { fileURLToPath } from 'node:url';
import { fmt, median, type ScenarioResult } from '../report.js';
import type { BenchContext } from '../context.js';

const CONTRACTORS = 50;
const SPREAD_MS = 500;
const TARGET_MS = 2000;

interface RunTimes {
  totalMs: number;
  slowestBidMs: number;
  bids: number;
  rejected: number;
  won: boolean;
}

/** Runs the scenario. */
export async function contractNetScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const key = await generateSigningKey('ES256');
  const signer: PayerKey = { payer: 'buyer', key: key.key, alg: key.alg, kid: key.kid };
  const child = await Child.start({
    name: 'contractors',
    script: fileURLToPath(new URL('../servers/contractors.js', import.meta.url)),
    cpu: ctx.pinning?.server,
  });
  try {
    const urls = await child.call<string[]>('start', {
      count: CONTRACTORS,
      payer: publicPart(await exportPrivateJwk(key)),
      spreadMs: SPREAD_MS,
    });
    const rounds = ctx.options.smoke ? 1 : ctx.options.rounds;
    const runs: RunTimes[] = [];
    for (let round = 0; round < rounds; round++) {
      ctx.log(`contract-net: round ${round + 1}/${rounds}`);
      const started = performance.now();
      let slowest = 0;
      let bids = 0;
      let rejected = 0;
      const net = contractNet({
        cfp: 'translate: good morning',
        contractors: urls,
        skill: { tags: ['translate'] },
        deadline: SPREAD_MS + 5000,
        choose: 'cheapest',
        signer,
      });
      for await (const event of net) {
        if (event.type === 'bid') {
          bids++;
          slowest = performance.now() - started;
        }
        if (event.type === 'rejected') rejected++;
      }
      const result = await net.result;
      runs.push({
        totalMs: performance.now() - started,
        slowestBidMs: slowest,
        bids,
        rejected,
        won: result.statement?.outcome === 'charged',
      });
    }
    const total = median(runs.map((r) => r.totalMs));
    const slowest = median(runs.map((r) => r.slowestBidMs));
    const overhead = median(runs.map((r) => r.totalMs - r.slowestBidMs));
    const complete = runs.every((r) => r.won && r.bids === CONTRACTORS);
    return {
      sections: [
        {
          title: `Contract Net, ${CONTRACTORS} loopback contractors (bids spread over ${SPREAD_MS} ms)`,
          columns: ['total ms', 'slowest counted bid ms', 'overhead ms', 'bids', 'rejected'],
          rows: [
            [
              fmt(total, 0),
              fmt(slowest, 0),
              fmt(overhead, 0),
              String(runs[0]?.bids ?? 0),
              String(runs[0]?.rejected ?? 0),
            ],
          ],
          note: 'overhead = total − arrival of the slowest counted bid: discovery, ranking, the award (signed authorization, the winner runs, statement) and 49 cancels; medians over rounds.',
        },
      ],
      checks: [
        {
          target: `Contract Net, ${CONTRACTORS} contractors: overhead beyond the slowest bid < ${TARGET_MS} ms`,
          measured: `${fmt(overhead, 0)} ms${complete ? '' : ' (a run did not complete with every bid)'}`,
          pass: complete && overhead < TARGET_MS,
        },
      ],
      data: { total, slowest, overhead, runs },
    };
  } finally {
    await child.stop();
  }
}
