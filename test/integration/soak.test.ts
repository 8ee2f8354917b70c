/**
 * Soak (issue 4, item 5): a SQLite-backed server process under continuous load (streamed
 * stories and blocking echoes) for A2A_SOAK_SECONDS (default 75 s; set more for a longer run),
 * with a short retention so finished tasks are purged all along. Its memory, sampled after a GC,
 * must stay flat between the end of the warm-up and the end of the run, and the database must
 * hold only the tasks of the retention window.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteTaskStore } from '../../src/stores/sqlite/index.js';
import { loops, newSeen, sendOne, streamOne } from './client-load.js';
import { startServer } from './processes.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-soak-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECONDS = Number(process.env['A2A_SOAK_SECONDS'] || 75);
const RETENTION_MS = 5_000;
const MB = 1024 * 1024;

interface Sample {
  t: number;
  rss: number;
  heapUsed: number;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1] ?? NaN;

describe('soak', () => {
  it(
    `keeps memory flat under ${SECONDS} s of load while retention purges finished tasks`,
    async () => {
      const file = join(dir, 'soak.db');
      const server = await startServer(
        'test/integration/fixtures/agent-server.js',
        ['--agent', 'demo', '--tick', '5', '--store', file, '--mem-every', '1000'],
        { A2A_RETENTION_MS: String(RETENTION_MS) },
        ['--expose-gc'],
      );
      const seen = newSeen();
      const stop = new AbortController();
      const started = Date.now();
      let tasks = 0;
      const load = Promise.all([
        loops(
          4,
          stop.signal,
          async () => {
            await streamOne(server.url, 'story 10', seen);
            seen.streamed.pop(); // only counted: keeping them would grow the test's own memory
            tasks++;
          },
          seen,
        ),
        loops(
          4,
          stop.signal,
          async () => {
            await sendOne(server.url, 'echo soak');
            tasks++;
          },
          seen,
        ),
      ]);
      await new Promise((resolve) => setTimeout(resolve, SECONDS * 1_000));
      stop.abort();
      await load;
      const elapsed = (Date.now() - started) / 1_000;
      expect(seen.failures, server.output().slice(-2_000)).toBe(0);

      const samples = server
        .lines('MEM ')
        .map((line) => JSON.parse(line) as Sample)
        .filter((s) => s.t >= started);
      const warmup = started + Math.min(20, SECONDS / 4) * 1_000;
      const span = 10_000;
      const early = samples.filter((s) => s.t >= warmup && s.t < warmup + span);
      const late = samples.filter((s) => s.t >= started + SECONDS * 1_000 - span);
      expect(early.length, 'memory samples after the warm-up').toBeGreaterThan(3);
      expect(late.length, 'memory samples at the end').toBeGreaterThan(3);
      const [heap0, heap1] = [
        median(early.map((s) => s.heapUsed)),
        median(late.map((s) => s.heapUsed)),
      ];
      const [rss0, rss1] = [median(early.map((s) => s.rss)), median(late.map((s) => s.rss))];

      const store = new SqliteTaskStore({ path: file });
      const count = (sql: string) => (store.db.prepare(sql).get() as { n: number }).n;
      const kept = count('SELECT count(*) AS n FROM tasks');
      const events = count('SELECT count(*) AS n FROM events');
      await store.close();
      await server.kill('SIGTERM');

      const rate = tasks / elapsed;
      // Finished tasks live RETENTION_MS, plus up to one sweep period (as long again).
      const window = Math.ceil((rate * (2 * RETENTION_MS + 2_000)) / 1_000) + 100;
      console.log(
        [
          `soak: ${elapsed.toFixed(0)} s, ${seen.failures} failures, retention ${RETENTION_MS} ms`,
          `  heapUsed ${(heap0 / MB).toFixed(1)} MB after warm-up -> ${(heap1 / MB).toFixed(1)} MB at the end`,
          `  rss      ${(rss0 / MB).toFixed(1)} MB after warm-up -> ${(rss1 / MB).toFixed(1)} MB at the end`,
          `  ${tasks} tasks (${rate.toFixed(0)}/s); database at the end: ${kept} tasks, ${events} events`,
        ].join('\n'),
      );
      expect(heap1, 'heap grew during the soak').toBeLessThanOrEqual(heap0 * 1.25 + 4 * MB);
      expect(rss1, 'RSS grew during the soak').toBeLessThanOrEqual(rss0 * 1.25 + 24 * MB);
      expect(kept, 'retention did not purge finished tasks').toBeLessThanOrEqual(window);
    },
    (SECONDS + 90) * 1_000,
  );
});
