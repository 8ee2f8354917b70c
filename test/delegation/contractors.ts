/** Priced contractor agents on loopback for the Contract Net tests and the benchmark. */
import { amount, type PayerKeys } from 'a2a-kit/accounting';
import { serve, type ServeResult } from 'a2a-kit/node';
import { createAgent, type OperationMiddleware } from 'a2a-kit/server';

/** How a contractor behaves once awarded. */
export type Behaviour = 'ok' | 'fail' | 'hang' | 'overcharge' | 'silent';

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
  return serve(agent, {
    logger: null,
    ...(behaviour === 'silent' ? { middleware: [silent] } : {}),
  });
}
