/**
 * wrk's latency histogram as measured. Before it reports (and before the Lua `done()` hook sees
 * the histogram), wrk 4 "corrects" it for coordinated omission: with `interval` = run time ÷
 * (requests ÷ connections), every recorded latency L ≥ 2·interval also adds one sample at
 * L − interval, L − 2·interval, … down to just above `interval` (`stats_correct` in wrk's
 * stats.c). That models clients that would have kept sending at a fixed rate while a request was
 * stuck; a bench with a fixed number of connections sends a request only when the previous one is
 * answered, so one 300 ms stall of all 50 connections at a 15 ms interval becomes ~1,000
 * synthetic samples and can decide the p99. The bench reports both: the latencies as measured
 * (what the p99 target is checked against) and wrk's corrected p99.
 *
 * The correction only ever adds to buckets below the one it reads, and reads each bucket before
 * anything is added to it, so it can be undone exactly from the top bucket down.
 */

/** A latency histogram: microseconds → number of samples (wrk's buckets are 1 µs wide). */
export type Histogram = ReadonlyMap<number, number>;

/** wrk's own `interval` (integer arithmetic, as in its main()). */
export function wrkInterval(runtimeUs: number, requests: number, connections: number): number {
  const perConnection = Math.floor(requests / connections);
  return perConnection > 0 ? Math.floor(runtimeUs / perConnection) : 0;
}

/** What wrk does to the histogram (its `stats_correct`); the reference for the tests. */
export function corrected(measured: Histogram, interval: number): Map<number, number> {
  const out = new Map(measured);
  if (interval <= 0) return out;
  const top = Math.max(0, ...measured.keys());
  for (let n = interval * 2; n <= top; n++) {
    const count = measured.get(n) ?? 0;
    for (let m = n - interval; count > 0 && m > interval; m -= interval) {
      out.set(m, (out.get(m) ?? 0) + count);
    }
  }
  return out;
}

/** The histogram before wrk's correction. */
export function uncorrected(reported: Histogram, interval: number): Map<number, number> {
  if (interval <= 0) return new Map(reported);
  const out = new Map<number, number>();
  const top = Math.max(0, ...reported.keys());
  // added[m]: what the correction put in bucket m, which is the measured count of m + interval
  // plus what it put there in turn (only for buckets above `interval`).
  const added = new Map<number, number>();
  for (let m = top; m >= 0; m--) {
    const count = (reported.get(m) ?? 0) - (m > interval ? (added.get(m) ?? 0) : 0);
    if (count > 0) out.set(m, count);
    if (m - interval > interval) {
      const below = count + (added.get(m) ?? 0);
      if (below > 0) added.set(m - interval, below);
    }
    added.delete(m);
  }
  return out;
}

/** wrk's percentile (`stats_percentile`): the first bucket whose running count reaches the rank. */
export function percentile(histogram: Histogram, p: number): number {
  const buckets = [...histogram].filter(([, c]) => c > 0).sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((sum, [, c]) => sum + c, 0);
  if (total === 0) return 0;
  const rank = Math.round((p / 100) * total + 0.5);
  let seen = 0;
  for (const [value, count] of buckets) {
    seen += count;
    if (seen >= rank) return value;
  }
  return (buckets[buckets.length - 1] as [number, number])[0];
}
