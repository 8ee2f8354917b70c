/**
 * The Contract Net bench's contractors: N priced translator agents (createAgent with the
 * accounting option, generations on), each its own loopback server in this one process. The
 * `start` command takes `{ count, payer, spreadMs }`: contractor i answers its call for proposals
 * after i × spreadMs / count ms, so the bids arrive spread over `spreadMs`.
 */
import type { JWK } from 'jose';
import { amount } from '../../src/accounting/index.js';
import type { OperationMiddleware } from '../../src/core/middleware.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { createAgent } from '../../src/server/index.js';
import { serveRpc } from '../ipc.js';

const servers: ServeResult[] = [];

/** Delays the answer to a call for proposals (a message that starts a task) by `ms`. */
function bidAfter(ms: number): OperationMiddleware {
  return async (operation, params, _call, next) => {
    const first = !(params as { message?: { taskId?: string } }).message?.taskId;
    if (operation === 'SendMessage' && first) await new Promise((r) => setTimeout(r, ms));
    return next();
  };
}

async function start(arg: { count: number; payer: JWK; spreadMs: number }): Promise<string[]> {
  for (let i = 0; i < arg.count; i++) {
    const agent = createAgent({
      card: {
        name: `contractor-${i}`,
        description: 'Bench contractor',
        version: '1.0.0',
        skills: [{ id: 'translate', name: 'Translate', description: 'x', tags: ['translate'] }],
      },
      accounting: {
        // Distinct prices, the cheapest last to bid: the award waits for every bid.
        price: { flat: amount((1 + arg.count - i).toFixed(2), 'USD') },
        energy: { perTaskJoules: '1' },
        estimate: () => ({ durationMs: 100 + i }),
        payers: { buyer: arg.payer },
        required: false,
      },
      async *execute({ task }) {
        yield task.working();
        task.usage({ step: 'translate', joules: '0.1' });
        yield task.artifact('traducido');
        yield task.completed();
      },
    });
    const delay = Math.round((i * arg.spreadMs) / Math.max(1, arg.count - 1));
    servers.push(
      await serve(agent, {
        port: 0,
        logger: null,
        generations: true,
        middleware: [bidAfter(delay)],
      }),
    );
  }
  return servers.map((s) => s.url);
}

serveRpc({ start }, {}, async () => {
  await Promise.all(servers.map((s) => s.close()));
});
