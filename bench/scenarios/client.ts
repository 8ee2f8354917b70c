/**
 * The client's own overhead per call: blocking SendMessage to the a2a-kit server one call at a
 * time, sent by raw fetch, by a2a-kit's A2AClient and by @a2a-js/sdk's client; CPU time of the
 * load generator per call (the server's work is the same for all three).
 */
import type { ClientKind, ClientLoadResult } from '../load/client-load.js';
import { KIT, rotate, type BenchContext } from '../context.js';
import { fmt, median, ratio, type Check, type ScenarioResult } from '../report.js';

const KINDS: readonly ClientKind[] = ['fetch', 'dispatcher', 'a2a-kit', 'a2a-js'];
const LABEL: Record<ClientKind, string> = {
  fetch: 'raw fetch',
  dispatcher: 'raw undici request',
  'a2a-kit': 'a2a-kit A2AClient',
  'a2a-js': '@a2a-js/sdk client',
};

/** Runs the scenario. */
export async function clientScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const servers = await ctx.startServers('client', [{ name: KIT, script: 'kit' }]);
  try {
    const url = servers.get(KIT)?.url ?? '';
    const run = (kind: ClientKind, durationSec: number) =>
      ctx.load.call<ClientLoadResult>('client', { url, kind, durationSec });
    if (!options.smoke) for (const kind of KINDS) await run(kind, 1);
    const samples = new Map<ClientKind, ClientLoadResult[]>();
    for (let round = 0; round < options.rounds; round++) {
      ctx.log(`client: round ${round + 1}/${options.rounds}`);
      for (const kind of rotate(KINDS, round)) {
        samples.set(kind, [...(samples.get(kind) ?? []), await run(kind, options.durationSec)]);
      }
    }
    const med = (kind: ClientKind) => {
      const runs = samples.get(kind) ?? [];
      return {
        cpu: median(runs.map((r) => r.cpuPerCall)),
        wall: median(runs.map((r) => r.wallPerCall)),
      };
    };
    const raw = med('fetch');
    const data: Record<string, unknown> = {};
    const rows = KINDS.map((kind) => {
      const m = med(kind);
      data[kind] = m;
      return [
        LABEL[kind],
        fmt(1e6 / m.wall),
        fmt(m.wall, 0),
        fmt(m.cpu, 0),
        kind === 'fetch' ? '' : signed(m.cpu - raw.cpu),
      ];
    });
    const kit = med('a2a-kit');
    const a2ajs = med('a2a-js');
    // Issue 16 item 6: a2a-kit's client costs no more CPU per call than @a2a-js/sdk's.
    const checks: Check[] = [
      {
        target: 'client CPU per call ≤ @a2a-js/sdk’s (blocking SendMessage, JSON-RPC)',
        measured:
          `${ratio(kit.cpu / a2ajs.cpu)} (${fmt(kit.cpu)} vs ${fmt(a2ajs.cpu)} µs/call; ` +
          `over raw fetch ${signed(kit.cpu - raw.cpu)} vs ${signed(a2ajs.cpu - raw.cpu)} µs; ` +
          `a2a-kit over the raw undici request it sends through ${signed(kit.cpu - med('dispatcher').cpu)} µs)`,
        pass: kit.cpu <= a2ajs.cpu,
      },
    ];
    return {
      sections: [
        {
          title:
            'Client overhead (blocking SendMessage over JSON-RPC to the a2a-kit server, one call at a time)',
          columns: [
            'client',
            'calls/s',
            'wall µs/call',
            'client CPU µs/call',
            'CPU µs vs raw fetch',
          ],
          rows,
          note:
            'client CPU = CPU time of the load generator process per call (parsing, validation, transport). ' +
            'raw undici request: the dispatcher under fetch, which a2a-kit’s HTTP bindings send through on Node (src/transport/http-send.ts); @a2a-js/sdk sends through fetch.',
        },
      ],
      checks,
      data,
    };
  } finally {
    await ctx.stopServers(servers);
  }
}

/** A difference in µs with its sign (`+12`, `-3`). */
function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${fmt(value, 0)}`;
}
