/**
 * What the audit chain costs (issue 20 point 2: tamper-evident task history, "cost on the send
 * benchmark ≤ 10 %"): CPU per echo send in process with audit off and on, on the memory store
 * (links derived on read), on the memory store told to link on write (the chain's write-time
 * work, for the account) and on SQLite (links on write), side by side in one run (rounds
 * interleave the variants, rotated; medians). Target: audit on costs at most 10 % per send.
 */
import { fileURLToPath } from 'node:url';
import type { AuditResult } from '../inprocess/audit.js';
import { Child } from '../proc.js';
import { rotate, type BenchContext } from '../context.js';
import { fmt, median, type ScenarioResult } from '../report.js';

/** Runs the scenario. */
export async function auditScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const calls = options.smoke ? 500 : 40_000;
  const child = await Child.start({
    name: 'audit in process',
    script: fileURLToPath(new URL('../inprocess/audit.js', import.meta.url)),
    cpu: ctx.pinning?.server,
  });
  try {
    const variants = await child.call<string[]>('variants', {});
    const samples = new Map<string, number[]>();
    for (let round = 0; round < options.rounds; round++) {
      ctx.log(`audit: round ${round + 1}/${options.rounds}`);
      // Rotated each round: a child's heap grows as its servers keep tasks, so a variant
      // always measured last would pay more of the collector's work.
      for (const variant of rotate(variants, round)) {
        const r = await child.call<AuditResult>('measure', {
          variant,
          calls,
          concurrency: options.connections,
        });
        samples.set(variant, [...(samples.get(variant) ?? []), r.cpuMicros]);
      }
    }
    const data: Record<string, number> = {};
    for (const v of variants) data[v] = median(samples.get(v) ?? []);
    const base = (v: string) => data[v.replace('audit on', 'audit off')] ?? NaN;
    const rows = variants.map((v) => {
      const cpu = data[v] ?? NaN;
      return [v, fmt(cpu, 1), v.endsWith('audit on') ? `${fmt(cpu / base(v), 2)}×` : ''];
    });
    const share = (on: string) => (data[on] ?? NaN) / base(on) - 1;
    const memory = share('sendMessage, memory, audit on');
    const sqlite = share('sendMessage, SQLite, audit on');
    return {
      sections: [
        {
          title: `In process: CPU per echo send with the audit chain off and on (${options.connections} at a time)`,
          columns: ['variant', 'CPU µs/call', 'vs. audit off'],
          rows,
          note: 'No sockets. Four links per echo task (creation, working, artifact, completed): one RFC 8785 form and one SHA-256 each, hashed on write by SQLite (and by the memory store told to link on write, what it did before), on read by the memory store (StoreFacets.linksOnRead: GetTask with the audit extension hashes them). Over HTTP each send also pays node:http and the socket: the send scenario measures the same over sockets (--stores=sqlite adds SQLite).',
        },
      ],
      checks: [
        {
          target: 'audit on costs <= 10 % per send on the memory store (core sendMessage)',
          measured: `${fmt(memory * 100, 1)} %`,
          pass: memory <= 0.1,
        },
        {
          target: 'audit on costs <= 10 % per send on the SQLite store (core sendMessage)',
          measured: `${fmt(sqlite * 100, 1)} %`,
          pass: sqlite <= 0.1,
        },
      ],
      data,
    };
  } finally {
    await child.stop();
  }
}
