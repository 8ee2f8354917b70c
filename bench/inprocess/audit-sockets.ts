/**
 * The audit chain's cost over sockets, steadier than the send scenario's three rounds: two
 * a2a-kit bench servers on one store kind, audit off and on (bench/servers/kit.ts), pinned to core
 * 0; wrk (one thread, 50 connections, a fresh messageId per request) from this process, which the
 * command pins to core 1; many short slices alternating which server goes first; server CPU per
 * request (user and system time apart, from the servers' own `process.cpuUsage`), medians. Run:
 * `node bench/build.mjs && taskset -c 1 node dist/bench-run/bench/inprocess/audit-sockets.js
 * [--store=sqlite|memory] [--rounds=20] [--seconds=3] [--same]` (`--same`: audit off on both, the
 * A/B's own bias).
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
const servers = { off: await start(false), on: await start(!same) };

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
try {
  await slice(servers.off);
  await slice(servers.on);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
    for (const kind of order) samples[kind].push(await slice(servers[kind]));
    process.stderr.write(`round ${round + 1}/${rounds}${round + 1 === rounds ? '\n' : '\r'}`);
  }
} finally {
  await Promise.all([servers.off.stop(), servers.on.stop()]);
}
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
console.log(`${store}, ${rounds} × ${seconds} s slices, server CPU µs per request (medians):`);
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

function total(u: Usage | undefined): number {
  return u === undefined ? Number.NaN : u.user + u.system;
}
