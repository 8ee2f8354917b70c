/**
 * A/B of the audit chain (A2AServerOptions.audit) in one process: CPU µs per echo send with audit
 * off and on, interleaved rounds, medians, through `A2AServer.sendMessage` and through the HTTP
 * handler (JSON-RPC SendMessage, no sockets). Run: `node bench/build.mjs &&
 * node dist/bench-run/bench/inprocess/audit-ab.js [--rounds=9] [--store=sqlite|memory|linked]`.
 * With `--alloc` (and `node --max-semi-space-size=512 --min-semi-space-size=512 --expose-gc`, so
 * no scavenge runs while measuring), the bytes allocated per core sendMessage instead: the heap's
 * growth over 2,000 sends, median of 5.
 */
import { createA2AHandler } from '../../src/http/index.js';
import type { HttpRequest, HttpResponse } from '../../src/http/types.js';
import { A2AServer } from '../../src/server/index.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import type { TaskStore } from '../../src/stores/types.js';
import { benchSqliteStore } from '../servers/durable-stores.js';
import { sendRequest } from '../load/requests.js';
import { nextMessageId } from '../load/sse-load.js';
import { kitEcho } from '../servers/kit-agent.js';
import { echoParams } from '../servers/seed.js';

/**
 * `--store=sqlite` (the default: a store that links on write), `memory` (derives the links on
 * read: StoreFacets.linksOnRead) or `linked` (the memory store told to link on write).
 */
const storeName =
  process.argv.find((a) => a.startsWith('--store='))?.slice('--store='.length) ?? 'sqlite';
async function store(): Promise<TaskStore> {
  if (storeName === 'sqlite') return benchSqliteStore();
  if (storeName !== 'memory' && storeName !== 'linked') {
    throw new Error(`--store=${storeName}: sqlite, memory or linked`);
  }
  return new MemoryTaskStore({ linksOnRead: storeName === 'memory' });
}
const off = new A2AServer({ agent: kitEcho, logger: null, store: await store() });
const on = new A2AServer({ agent: kitEcho, logger: null, store: await store(), audit: true });
const HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  'a2a-version': '1.0',
};
const req = (): HttpRequest => {
  const { path, body } = sendRequest('jsonrpc', false, nextMessageId(), 'hello');
  return { method: 'POST', url: path, headers: { get: (n) => HEADERS[n] ?? null }, body };
};
async function drain(r: HttpResponse) {
  if (typeof r.body !== 'string' && r.body) for await (const _ of r.body) void _;
}
const handlers = { off: createA2AHandler(off), on: createA2AHandler(on) };
async function core(s: A2AServer, total: number) {
  const t = process.cpuUsage();
  for (let i = 0; i < total; i++) await s.sendMessage(echoParams(i), {});
  const u = process.cpuUsage(t);
  return (u.user + u.system) / total;
}
async function http(h: (r: HttpRequest) => Promise<HttpResponse>, total: number) {
  const t = process.cpuUsage();
  for (let i = 0; i < total; i++) await drain(await h(req()));
  const u = process.cpuUsage(t);
  return (u.user + u.system) / total;
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
if (process.argv.includes('--alloc')) {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('--alloc needs node --expose-gc (see the header)');
  let next = 0;
  const bytes = async (s: A2AServer) => {
    const per: number[] = [];
    for (let round = 0; round < 5; round++) {
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 2000; i++) await s.sendMessage(echoParams(1_000_000 + next++), {});
      per.push((process.memoryUsage().heapUsed - before) / 2000);
    }
    return med(per);
  };
  await core(off, 2000);
  await core(on, 2000);
  const [a, b] = [await bytes(off), await bytes(on)];
  console.log(
    `bytes per core sendMessage (${storeName}): off ${a.toFixed(0)}, on ${b.toFixed(0)}, +${(b - a).toFixed(0)}`,
  );
  process.exit(0);
}
const r = {
  coreOff: [] as number[],
  coreOn: [] as number[],
  httpOff: [] as number[],
  httpOn: [] as number[],
};
await core(off, 3000);
await core(on, 3000);
await http(handlers.off, 3000);
await http(handlers.on, 3000);
const rounds = Number(
  process.argv.find((a) => a.startsWith('--rounds='))?.slice('--rounds='.length) ?? 9,
);
for (let round = 0; round < rounds; round++) {
  r.coreOff.push(await core(off, 3000));
  r.coreOn.push(await core(on, 3000));
  r.httpOff.push(await http(handlers.off, 3000));
  r.httpOn.push(await http(handlers.on, 3000));
}
const c = [med(r.coreOff), med(r.coreOn)],
  h = [med(r.httpOff), med(r.httpOn)];
console.log(
  `core sendMessage: off ${c[0]!.toFixed(1)} µs, on ${c[1]!.toFixed(1)} µs, +${((c[1]! / c[0]! - 1) * 100).toFixed(1)} %`,
);
console.log(
  `HTTP JSON-RPC SendMessage: off ${h[0]!.toFixed(1)} µs, on ${h[1]!.toFixed(1)} µs, +${((h[1]! / h[0]! - 1) * 100).toFixed(1)} %`,
);
process.exit(0);
