/**
 * The a2a-kit bench server: the echo agent behind `serve()` (JSON-RPC + HTTP+JSON), in its own
 * process. Settings: `--store=<name>` (stores.ts), `--max-tasks=N`, `--audit=on` (the audit chain,
 * A2AServerOptions.audit).
 */
import { serve } from '../../src/node/index.js';
import { childArg, processStats, serveRpc } from '../ipc.js';
import { seedTasks } from './seed.js';
import { kitEcho } from './kit-agent.js';
import { releaseHolds } from './modes.js';
import { STORES } from './stores.js';

const storeName = childArg('store') ?? 'memory';
const factory = STORES[storeName];
if (factory === undefined) throw new Error(`unknown store ${storeName}`);
const store = await factory({ maxTasks: Number(childArg('max-tasks') ?? 10_000) });
// compat: ['0.3'] so the send scenario can compare the 0.3 paths with 1.0 on one server.
const audit = childArg('audit') === 'on';
const served = await serve(kitEcho, { port: 0, store, logger: null, compat: ['0.3'], audit });
const port = Number(new URL(served.url).port);

serveRpc(
  {
    stats: (arg: { gc: boolean }) => processStats(arg.gc),
    // User and system CPU µs apart (bench/inprocess/audit-sockets.ts).
    usage: () => process.cpuUsage(),
    release: () => releaseHolds(),
    seed: (arg: { count: number }) => seedTasks(served.server, arg.count),
  },
  { port },
  () => served.close(),
);
