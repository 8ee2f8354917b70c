/**
 * The A2A 0.3 request path against 1.0, in process and without sockets (issue 14 point 7: at
 * most 10 % over 1.0): blocking sends of the bench's echo agent through the HTTP handler of one
 * `compat: ['0.3']` server, as 1.0 and as 0.3 bodies, over JSON-RPC and HTTP+JSON, interleaved
 * in rounds so machine noise hits every variant alike; prints µs of CPU per send and the 0.3/1.0
 * ratio. Run: `node bench/build.mjs && node dist/bench-run/bench/inprocess/compat03.js [N]`
 * (N sends per variant, default 20,000; a second argument keeps the variants whose name
 * contains it, `''` for all; a third sets the rounds, default 10); add `--cpu-prof` to node for
 * a profile. Many short rounds (`compat03.js 20000 '' 100`) spread the garbage collections of
 * the growing store over the variants alike: the ratios then scatter less from run to run.
 */
import { createA2AHandler } from '../../src/http/index.js';
import type { HttpRequest } from '../../src/http/types.js';
import { A2AServer } from '../../src/server/index.js';
import { A2A_03_HEADERS, send03Request, sendRequest, type Binding } from '../load/requests.js';
import { nextMessageId } from '../load/sse-load.js';
import { kitEcho } from '../servers/kit-agent.js';

const server = new A2AServer({ agent: kitEcho, logger: null, compat: ['0.3'] });
const handler = createA2AHandler(server);
const V1: Record<string, string> = { 'content-type': 'application/json', 'a2a-version': '1.0' };

function request(binding: Binding, v03: boolean): HttpRequest {
  const id = nextMessageId();
  const { path, body } = v03
    ? send03Request(binding, id, 'hello')
    : sendRequest(binding, false, id, 'hello');
  const headers = v03 ? A2A_03_HEADERS : V1;
  return { method: 'POST', url: path, headers: { get: (name) => headers[name] ?? null }, body };
}

async function send(binding: Binding, v03: boolean): Promise<void> {
  const response = await handler(request(binding, v03));
  const body = typeof response.body === 'string' ? response.body : '';
  if (response.status !== 200 || !/completed|COMPLETED/.test(body)) {
    throw new Error(`not a completed echo task (${response.status}): ${body.slice(0, 200)}`);
  }
}

const ALL = [
  ['JSON-RPC 1.0', 'jsonrpc', false],
  ['JSON-RPC 0.3', 'jsonrpc', true],
  ['HTTP+JSON 1.0', 'rest', false],
  ['HTTP+JSON 0.3', 'rest', true],
] as const;
// A second argument picks the variants whose name contains it (`0.3`, `HTTP+JSON 0.3`): profiling.
const VARIANTS = ALL.filter(([name]) => name.includes(process.argv[3] ?? ''));

const total = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[4] ?? 10);
const perRound = Math.ceil(total / rounds);
const cpu = new Map<string, number>(VARIANTS.map(([name]) => [name, 0]));
for (const [, binding, v03] of VARIANTS) for (let i = 0; i < 2_000; i++) await send(binding, v03);
for (let round = 0; round < rounds; round++) {
  for (const [name, binding, v03] of VARIANTS) {
    const before = process.cpuUsage();
    for (let i = 0; i < perRound; i++) await send(binding, v03);
    const used = process.cpuUsage(before);
    cpu.set(name, (cpu.get(name) ?? 0) + used.user + used.system);
  }
}
const per = (name: string) => (cpu.get(name) ?? 0) / (perRound * rounds);
for (const [name] of VARIANTS) console.log(`${name.padEnd(14)} ${per(name).toFixed(1)} µs/send`);
for (const label of ['JSON-RPC', 'HTTP+JSON']) {
  if (!cpu.has(`${label} 0.3`) || !cpu.has(`${label} 1.0`)) continue;
  console.log(`${label} 0.3/1.0: ${(per(`${label} 0.3`) / per(`${label} 1.0`)).toFixed(3)}`);
}
await server.close();
