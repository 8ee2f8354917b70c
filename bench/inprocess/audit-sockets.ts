/**
 * The audit chain's cost over sockets, steadier than the send scenario's three rounds: two
 * a2a-kit bench servers on one store kind, audit off and on (bench/servers/kit.ts), pinned to core
 * 0; wrk (one thread, 50 connections, a fresh messageId per request) from this process, which the
 * command pins to core 1; many short slices alternating which server goes first; server CPU per
 * request (user and system time apart, from the servers' own `process.cpuUsage`), medians. With
 * `--generations=G` the rounds are split over G pairs of fresh server processes: two processes
 * running the same code can differ by several per cent for their whole life (their JIT's choices,
 * their heap's layout), which one pair cannot tell from the A/B's effect; the ratio of each
 * generation is then printed and their median reported. Run:
 * `node bench/build.mjs && taskset -c 1 node dist/bench-run/bench/inprocess/audit-sockets.js
 * [--store=sqlite|memory] [--rounds=20] [--seconds=3] [--generations=1] [--same]` (`--same`:
 * audit off on both, the A/B's own bias).
 */
import { fileURLToPath } from 'node:url';
import { A2A_HEADERS, jsonrpcBody } from '../load/requests.js';
import { wrkLoad } from '../load/wrk.js';
import { Child } from '../proc.js';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const store = arg('store', 'sqlite');
const rounds = Number(arg('rounds', '20'));
const seconds = Number(arg('seconds', '3'));
const same = process.argv.includes('--same');

const script = fileURLToPath(new URL('../servers/kit.js', import.meta.url));
const start = (audit: boolean) =>
  Child.start({
    name: `a2a-kit ${store} audit ${audit ? 'on' : 'off'}`,
    script,
    cpu: '0',
    args: [`--store=${store}`, `--audit=${audit ? 'on' : 'off'}`],
  });
const generations = Math.max(1, Number(arg('generations', '1')));

interface Usage {
  user: number;
  system: number;
}
/** CPU µs per request of one slice on `server`. */
async function slice(server: Child): Promise<Usage> {
  const before = await server.call<Usage>('usage');
  const result = await wrkLoad('wrk', {
    url: `${server.url}/a2a/jsonrpc`,
    method: 'POST',
    headers: { ...A2A_HEADERS },
    body: jsonrpcBody('SendMessage', '[<id>]', 'hello'),
    connections: 50,
    durationSec: seconds,
  });
  const after = await server.call<Usage>('usage');
  return {
    user: (after.user - before.user) / result.requests,
    system: (after.system - before.system) / result.requests,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const samples = { off: [] as Usage[], on: [] as Usage[] };
/** The on ÷ off ratio of each generation's medians. */
const ratios: number[] = [];
const perGeneration = Math.max(1, Math.round(rounds / generations));
for (let g = 0; g < generations; g++) {
  const servers = { off: await start(false), on: await start(!same) };
  const from = samples.off.length;
  try {
    await slice(servers.off);
    await slice(servers.on);
    for (let round = 0; round < perGeneration; round++) {
      const order = (round + g) % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
      for (const kind of order) samples[kind].push(await slice(servers[kind]));
      process.stderr.write(
        `generation ${g + 1}/${generations} round ${round + 1}/${perGeneration}\r`,
      );
    }
  } finally {
    await Promise.all([servers.off.stop(), servers.on.stop()]);
  }
  const totals = (kind: 'off' | 'on') => samples[kind].slice(from).map((u) => total(u));
  ratios.push(median(totals('on')) / median(totals('off')));
}
process.stderr.write('\n');
const row = (kind: 'off' | 'on') => {
  const s = samples[kind];
  const user = median(s.map((u) => u.user));
  const system = median(s.map((u) => u.system));
  const total = median(s.map((u) => u.user + u.system));
  return { user, system, total };
};
const off = row('off');
const on = row('on');
const paired = median(samples.on.map((u, i) => (u.user + u.system) / total(samples.off[i])));
console.log(
  `${store}, ${samples.off.length} × ${seconds} s slices, server CPU µs per request (medians):`,
);
for (const [name, r] of [
  ['audit off', off],
  [same ? 'audit off (2nd)' : 'audit on', on],
] as const) {
  console.log(
    `  ${name.padEnd(16)} user ${r.user.toFixed(1)}  system ${r.system.toFixed(1)}  total ${r.total.toFixed(1)}`,
  );
}
console.log(
  `  on ÷ off: ${(on.total / off.total).toFixed(3)}× (median of paired slices ${paired.toFixed(3)}×)`,
);
if (generations > 1) {
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(
    `  ${generations} generations of fresh servers, on ÷ off each: ${ratios.map((r) => r.toFixed(3)).join(' ')}`,
  );
  console.log(
    `  median of the generations ${median(ratios).toFixed(3)}× (from ${sorted[0]?.toFixed(3)} to ${sorted[sorted.length - 1]?.toFixed(3)})`,
  );
}

function total(u: Usage | undefined): number {
  return u === undefined ? Number.NaN : u.user + u.system;
}
