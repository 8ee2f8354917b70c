/**
 * The measurement loop of the send and stream scenarios: the three targets (ceiling,
 * @a2a-js/sdk, a2a-kit) over both HTTP bindings, an unrecorded warm-up, then rounds that run
 * every target back to back in an order rotated each round.
 */
import type { Binding } from '../load/requests.js';
import {
  A2AJS,
  CEILING,
  kitServers,
  rotate,
  type BenchContext,
  type ServerSpec,
} from '../context.js';
import type { Child } from '../proc.js';

export const BINDINGS: readonly Binding[] = ['jsonrpc', 'rest'];
export const LABEL: Record<Binding, string> = { jsonrpc: 'JSON-RPC', rest: 'HTTP+JSON' };

/** One measurement of `name` over `binding`; a description of what failed, if anything did. */
export type Measure<T> = (
  server: Child,
  binding: Binding,
  durationSec: number,
) => Promise<{ result: T; failed?: string | undefined }>;

/**
 * Starts the targets (and `extra` servers), lets `prepare` check them, warms each up, runs the rounds and stops the
 * servers; the samples are keyed `${binding} ${name}`, in the order of the targets.
 */
export async function bindingRounds<T, B extends string = Binding>(
  ctx: BenchContext,
  scenario: string,
  measure: (server: Child, binding: B, durationSec: number) => ReturnType<Measure<T>>,
  prepare: (name: string, server: Child) => Promise<void> = async () => undefined,
  bindings: readonly B[] = BINDINGS as readonly string[] as readonly B[],
  extra: readonly ServerSpec[] = [],
): Promise<{ names: string[]; samples: Map<string, T[]> }> {
  const { options } = ctx;
  const servers = await ctx.startServers(scenario, [
    { name: CEILING, script: 'ceiling' },
    { name: A2AJS, script: 'a2ajs' },
    ...kitServers(ctx),
    ...extra,
  ]);
  try {
    const names = [...servers.keys()];
    for (const [name, server] of servers) await prepare(name, server);
    const run = async (name: string, binding: B, durationSec: number) => {
      const server = servers.get(name);
      if (server === undefined) throw new Error(`no server ${name}`);
      const { result, failed } = await measure(server, binding, durationSec);
      if (failed !== undefined) throw new Error(`${scenario} ${binding} ${name}: ${failed}`);
      return result;
    };
    if (!options.smoke) {
      ctx.log(`${scenario}: warming up`);
      for (const binding of bindings) for (const name of names) await run(name, binding, 2);
    }
    const samples = new Map<string, T[]>();
    for (let round = 0; round < options.rounds; round++) {
      ctx.log(`${scenario}: round ${round + 1}/${options.rounds}`);
      for (const binding of bindings) {
        for (const name of rotate(names, round)) {
          const result = await run(name, binding, options.durationSec);
          const key = `${binding} ${name}`;
          samples.set(key, [...(samples.get(key) ?? []), result]);
        }
      }
    }
    return { names, samples };
  } finally {
    await ctx.stopServers(servers);
  }
}
