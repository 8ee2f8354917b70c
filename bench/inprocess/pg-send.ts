/**
 * Blocking echo SendMessage on PostgreSQL against the memory store, in one process (issue 16,
 * point 4): `A2AServer.sendMessage` with the store as `serve()` runs it (ownership leases on),
 * 50 sends in flight, synchronous commit on. Prints sends/s for both stores, their ratio, and
 * per send: the store's round trips (pool queries), the writes among them (each its own
 * transaction, so one commit and one WAL flush), and which statements they were. Interleaved
 * rounds, medians. Run: `node bench/build.mjs && A2A_BENCH_POSTGRES_URL=postgres://... node
 * dist/bench-run/bench/inprocess/pg-send.js [seconds per round] [rounds]`.
 */
import type { Pool } from 'pg';
import { A2AServer } from '../../src/server/index.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import { benchPostgresStore } from '../servers/durable-stores.js';
import { kitEcho } from '../servers/kit-agent.js';
import { echoParams } from '../servers/seed.js';
import type { PostgresTaskStore } from '../../src/stores/postgres/index.js';

const seconds = Number(process.argv[2] ?? 3);
const rounds = Number(process.argv[3] ?? 5);
const CONCURRENCY = 50;

const counts = new Map<string, number>();
let queries = 0;

/** Counts every query of the pool, by prepared statement name (or first words of the text). */
function countQueries(pool: Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const first = args[0] as string | { name?: string; text: string };
    const key =
      typeof first === 'string'
        ? first.slice(0, 30)
        : (first.name?.replace(/^a2a_|_[0-9a-f]{8}$/g, '') ?? first.text.slice(0, 30));
    counts.set(key, (counts.get(key) ?? 0) + 1);
    queries++;
    return query(...args);
  };
}

const pgStore = (await benchPostgresStore()) as PostgresTaskStore;
countQueries(pgStore.pool);
const servers = {
  memory: new A2AServer({ agent: kitEcho, logger: null, store: new MemoryTaskStore() }),
  postgres: new A2AServer({ agent: kitEcho, logger: null, store: pgStore }),
};

let n = 0;
async function round(server: A2AServer, ms: number): Promise<number> {
  const end = performance.now() + ms;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const reply = await server.sendMessage(echoParams(n++), {});
      if (!('task' in reply) || reply.task.status.state !== 'TASK_STATE_COMPLETED') {
        throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
      }
      done++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return (done * 1000) / (performance.now() - start);
}

const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] as number;
await round(servers.memory, 500);
await round(servers.postgres, 1000);
counts.clear();
queries = 0;
const r = { memory: [] as number[], postgres: [] as number[] };
let sends = 0;
for (let i = 0; i < rounds; i++) {
  r.memory.push(await round(servers.memory, seconds * 1000));
  const before = n;
  r.postgres.push(await round(servers.postgres, seconds * 1000));
  sends += n - before;
}
const m = med(r.memory);
const p = med(r.postgres);
console.log(
  `memory ${m.toFixed(0)} sends/s, postgres ${p.toFixed(0)} sends/s: ${(p / m).toFixed(3)}× (${CONCURRENCY} in flight, ${rounds} rounds of ${seconds} s, medians)`,
);
console.log(`postgres: ${(queries / sends).toFixed(2)} round trips per send (${sends} sends)`);
for (const [key, count] of [...counts].sort((a, b) => b[1] - a[1])) {
  console.log(`  ${key.padEnd(32)} ${(count / sends).toFixed(3)} per send`);
}
await servers.postgres.close();
await servers.memory.close();
process.exit(0);
