/** Priced contractor agents on loopback for the Contract Net tests and the benchmark. */
import {
  ACCOUNTING_EXTENSION,
  amount,
  withAccountingExtension,
  type PayerKeys,
} from 'a2a-kit/accounting';
import { A2AClient } from 'a2a-kit/client';
import { serve, type ServeResult } from 'a2a-kit/node';
import { createAgent, type OperationMiddleware } from 'a2a-kit/server';

/** How a contractor behaves once awarded. */
export type Behaviour = 'ok' | 'fail' | 'hang' | 'overcharge' | 'silent' | 'drift';

/** One contractor. */
export interface ContractorSpec {
  name: string;
  /** Flat price in USD. */
  price: string;
  /** The duration its quote announces. */
  estimateMs: number;
  tags?: string[];
  behaviour?: Behaviour;
  /** Milliseconds it works once awarded. */
  workMs?: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

/** A middleware that never answers SendMessage (a contractor that does not bid). */
const silent: OperationMiddleware = async (operation, _params, call, next) => {
  if (operation !== 'SendMessage') return next();
  await new Promise<void>((resolve) => setTimeout(resolve, 60_000).unref());
  void call;
  return next();
};

/**
 * A middleware that, just after it has bid, moves its own bid task on (a message on it, answered
 * by a refusal: the task changes, the quote does not): an award on the bid as seen must not apply.
 */
function drift(self: () => string): OperationMiddleware {
  return async (operation, params, _call, next) => {
    const result = await next();
    const task = (result as { task?: { id: string; status: { state: string } } }).task;
    const first = !(params as { message?: { taskId?: string } }).message?.taskId;
    if (
      operation === 'SendMessage' &&
      first &&
      task?.status.state === 'TASK_STATE_INPUT_REQUIRED'
    ) {
      // Shortly after the bid was answered (the execution that wrote the quote may still be
      // winding down: UNSUPPORTED_OPERATION until then).
      void (async () => {
        const client = await A2AClient.connect(self());
        for (let attempt = 0; attempt < 100; attempt++) {
          await sleep(10);
          try {
            await client.sendMessage(
              {
                message: {
                  role: 'ROLE_USER',
                  messageId: crypto.randomUUID(),
                  taskId: task.id,
                  parts: [{ text: 'changed my mind' }],
                  metadata: { [ACCOUNTING_EXTENSION]: {} },
                },
              },
              withAccountingExtension(),
            );
            return;
          } catch {
            // not yet
          }
        }
      })();
    }
    return result;
  };
}

/** Serves one contractor on 127.0.0.1, any free port. */
export async function startContractor(
  spec: ContractorSpec,
  payers: PayerKeys,
): Promise<ServeResult> {
  const behaviour = spec.behaviour ?? 'ok';
  const agent = createAgent({
    card: {
      name: spec.name,
      description: `Contractor ${spec.name}`,
      version: '1.0.0',
      skills: [
        {
          id: 'translate',
          name: 'Translate',
          description: 'Translate text',
          tags: spec.tags ?? ['translate'],
        },
      ],
    },
    accounting: {
      price: { flat: amount(spec.price, 'USD'), perUnit: amount('0.01', 'USD'), unit: 'word' },
      energy: { perTaskJoules: '1', perSecondJoules: '5' },
      estimate: () => ({ durationMs: spec.estimateMs, units: '0' }),
      payers,
      required: false,
    },
    async *execute({ task, signal }) {
      yield task.working();
      if (behaviour === 'hang') {
        await sleep(60_000, signal);
        return;
      }
      if (spec.workMs) await sleep(spec.workMs, signal);
      if (behaviour === 'fail') {
        yield task.failed(`${spec.name} broke down`);
        return;
      }
      task.usage({
        step: 'translate',
        units: behaviour === 'overcharge' ? '500' : '0',
        joules: '0.5',
      });
      yield task.artifact(`translated by ${spec.name}`);
      yield task.completed();
    },
  });
  let url = '';
  const middleware =
    behaviour === 'silent' ? [silent] : behaviour === 'drift' ? [drift(() => url)] : [];
  // generations: true, so Contract Net awards with ifGenerationMatch (A2A 1.1 draft).
  const served = await serve(agent, { logger: null, generations: true, middleware });
  url = served.url;
  return served;
}
