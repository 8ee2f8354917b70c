/**
 * The cost of the audit chain (A2AServerOptions.audit, docs/trust.md), in process (no sockets, so
 * nothing hides it): CPU time per echo task with audit off and on, through `A2AServer.sendMessage`,
 * on the memory store (which derives the
 * chain on read: StoreFacets.linksOnRead), on the memory store told to link on write (what every
 * write cost before), and on the SQLite default store (which links on write). The `audit`
 * scenario of `npm run bench` runs it (scenarios/audit.ts); bench/inprocess/audit-ab.ts is the
 * same A/B as one command.
 */
import { A2AServer } from '../../src/server/index.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import { serveRpc } from '../ipc.js';
import { benchSqliteStore } from '../servers/durable-stores.js';
import { kitEcho } from '../servers/kit-agent.js';
import { echoParams } from '../servers/seed.js';

/** CPU µs per call of each variant. */
export interface AuditResult {
  variant: string;
  cpuMicros: number;
}

const off = new A2AServer({ agent: kitEcho, logger: null });
const on = new A2AServer({ agent: kitEcho, logger: null, audit: true });
/** The memory store with its links hashed on write, as a durable store keeps them. */
const linkedOnWrite = () => new MemoryTaskStore({ linksOnRead: false });
const linkedOff = new A2AServer({ agent: kitEcho, logger: null, store: linkedOnWrite() });
const linkedOn = new A2AServer({
  agent: kitEcho,
  logger: null,
  store: linkedOnWrite(),
  audit: true,
});
const sqliteOff = new A2AServer({ agent: kitEcho, logger: null, store: await benchSqliteStore() });
const sqliteOn = new A2AServer({
  agent: kitEcho,
  logger: null,
  store: await benchSqliteStore(),
  audit: true,
});
let n = 0;

const VARIANTS: Record<string, () => Promise<unknown>> = {
  'sendMessage, memory, audit off': () => off.sendMessage(echoParams(n++), {}),
  'sendMessage, memory, audit on': () => on.sendMessage(echoParams(n++), {}),
  'sendMessage, memory linked on write, audit off': () =>
    linkedOff.sendMessage(echoParams(n++), {}),
  'sendMessage, memory linked on write, audit on': () => linkedOn.sendMessage(echoParams(n++), {}),
  'sendMessage, SQLite, audit off': () => sqliteOff.sendMessage(echoParams(n++), {}),
  'sendMessage, SQLite, audit on': () => sqliteOn.sendMessage(echoParams(n++), {}),
};

async function run(variant: string, total: number, concurrency: number): Promise<number> {
  const fn = VARIANTS[variant];
  if (fn === undefined) throw new Error(`unknown variant ${variant}`);
  let done = 0;
  const start = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (done++ < total) await fn();
    }),
  );
  const used = process.cpuUsage(start);
  return (used.user + used.system) / total;
}

serveRpc({
  variants: () => Object.keys(VARIANTS),
  measure: async (arg: { variant: string; calls: number; concurrency: number }) => {
    await run(arg.variant, Math.ceil(arg.calls / 4), arg.concurrency); // warm-up
    return { variant: arg.variant, cpuMicros: await run(arg.variant, arg.calls, arg.concurrency) };
  },
});
