/**
 * Blocking echo SendMessage on the SQLite default against the memory store, in process (issue
 * 16, point 2): `A2AServer.sendMessage` with the store as `serve()` runs it (ownership leases
 * on, a fresh file in the temp folder, WAL), 50 sends in flight. Each figure comes from its own
 * child process; the stores (and, with `--base=DIR`, the two builds) alternate round by round.
 * Prints per build and store the sends/s, CPU µs per send and the SQLite transactions per send,
 * medians, and the ratio of SQLite to memory.
 *
 * Run: `node bench/build.mjs && node dist/bench-run/bench/inprocess/sqlite-send.js
 * [--base=<another built checkout>] [--rounds=5] [--seconds=3]`.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as ServerModule from '../../src/server/index.js';
import type * as DurableModule from '../servers/durable-stores.js';
import type * as KitAgentModule from '../servers/kit-agent.js';
import type * as SeedModule from '../servers/seed.js';

type StoreName = 'memory' | 'sqlite';
const CONCURRENCY = 50;

const arg = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const here = dirname(fileURLToPath(import.meta.url));
const ownRoot = resolve(here, '../../../..'); // dist/bench-run/bench/inprocess → the checkout

interface Figure {
  rate: number;
  cpu: number;
  tx: number;
}

/** One child: the build at `root`, one store, a warm-up then `seconds` of sends. */
async function worker(root: string, storeName: StoreName, seconds: number): Promise<Figure> {
  const dist = join(root, 'dist/bench-run');
  const { A2AServer, MemoryTaskStore } = (await import(
    join(dist, 'src/server/index.js')
  )) as typeof ServerModule;
  const { benchSqliteStore } = (await import(
    join(dist, 'bench/servers/durable-stores.js')
  )) as typeof DurableModule;
  const { kitEcho } = (await import(
    join(dist, 'bench/servers/kit-agent.js')
  )) as typeof KitAgentModule;
  const { echoParams } = (await import(join(dist, 'bench/servers/seed.js'))) as typeof SeedModule;
  const store = storeName === 'memory' ? new MemoryTaskStore() : await benchSqliteStore();
  let commits = 0;
  const db = (store as { db?: { exec: (sql: string) => unknown } }).db;
  if (db) {
    // Counts the transactions (the group commit's COMMIT, better-sqlite3's own transactions).
    const exec = db.exec.bind(db);
    db.exec = (sql: string) => {
      if (/^\s*COMMIT/i.test(sql)) commits++;
      return exec(sql);
    };
  }
  const server = new A2AServer({ agent: kitEcho, logger: null, store });
  let n = 0;
  const round = async (ms: number) => {
    const end = performance.now() + ms;
    let done = 0;
    const send = async () => {
      while (performance.now() < end) {
        const reply = await server.sendMessage(echoParams(n++), {});
        if (!('task' in reply) || reply.task.status.state !== 'TASK_STATE_COMPLETED') {
          throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
        }
        done++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, send));
    return done;
  };
  await round(1000);
  commits = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const done = await round(seconds * 1000);
  const used = process.cpuUsage(cpu0);
  const elapsed = performance.now() - t0;
  await server.close();
  await store.close();
  return {
    rate: (done * 1000) / elapsed,
    cpu: (used.user + used.system) / done,
    tx: commits / done,
  };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function child(root: string, store: StoreName, seconds: number): Figure {
  const out = execFileSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--worker', root, store, String(seconds)],
    { encoding: 'utf8' },
  );
  return JSON.parse(out) as Figure;
}

if (process.argv[2] === '--worker') {
  const [root, store, seconds] = process.argv.slice(3) as [string, StoreName, string];
  process.stdout.write(`${JSON.stringify(await worker(root, store, Number(seconds)))}\n`);
  process.exit(0);
} else {
  const base = arg('base');
  const rounds = Number(arg('rounds') ?? 5);
  const seconds = Number(arg('seconds') ?? 3);
  const builds: Record<string, string> = base ? { base: resolve(base), this: ownRoot } : {};
  if (!base) builds['this'] = ownRoot;
  const figures = new Map<string, Figure[]>();
  for (let r = 0; r < rounds; r++) {
    for (const [name, root] of Object.entries(builds)) {
      for (const store of ['memory', 'sqlite'] as const) {
        const key = `${name}/${store}`;
        figures.set(key, [...(figures.get(key) ?? []), child(root, store, seconds)]);
      }
    }
  }
  console.log(`${CONCURRENCY} sends in flight, ${rounds} rounds of ${seconds} s, medians`);
  console.log('build  store    sends/s  CPU µs/send  tx/send  × memory (rate)  × memory (CPU)');
  for (const name of Object.keys(builds)) {
    const of = (store: StoreName, k: keyof Figure) =>
      median((figures.get(`${name}/${store}`) ?? []).map((f) => f[k]));
    for (const store of ['memory', 'sqlite'] as const) {
      console.log(
        `${name.padEnd(6)} ${store.padEnd(7)} ${of(store, 'rate').toFixed(0).padStart(8)}  ${of(
          store,
          'cpu',
        )
          .toFixed(1)
          .padStart(11)}  ${of(store, 'tx').toFixed(3).padStart(7)}  ${(
          of(store, 'rate') / of('memory', 'rate')
        )
          .toFixed(3)
          .padStart(15)}  ${(of('memory', 'cpu') / of(store, 'cpu')).toFixed(3).padStart(14)}`,
      );
    }
  }
}
