/**
 * What the audit chain costs (issue 20 point 2: tamper-evident task history, "cost on the send
 * benchmark ≤ 10 %"): CPU per echo send in process with audit off and on, core and over the HTTP
 * handler, side by side in one run (rounds interleave the variants; medians). Target: audit on
 * costs at most 10 % per send.
 */
import { fileURLToPath } from 'node:url';
import type { AuditResult } from '../inprocess/audit.js';
import { Child } from '../proc.js';
import type { BenchContext } from '../context.js';
import { fmt, median, type ScenarioResult } from '../report.js';

/** Runs the scenario. */
export async function auditScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { options } = ctx;
  const calls = options.smoke ? 500 : 20_000;
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
      for (const variant of variants) {
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
    const core = (data['sendMessage, audit on'] ?? NaN) / base('sendMessage, audit on') - 1;
    const http =
      (data['HTTP JSON-RPC SendMessage, audit on'] ?? NaN) /
        base('HTTP JSON-RPC SendMessage, audit on') -
      1;
    return {
      sections: [
        {
          title: `In process: CPU per echo send with the audit chain off and on (${options.connections} at a time)`,
          columns: ['variant', 'CPU µs/call', 'vs. audit off'],
          rows,
          note: 'No sockets. Four links per echo task (creation, working, artifact, completed): one RFC 8785 form and one SHA-256 each. Over HTTP each send also pays node:http and the socket, so the share is smaller there.',
        },
      ],
      checks: [
        {
          target: 'audit on costs <= 10 % per send (HTTP handler, JSON-RPC)',
          measured: `${fmt(http * 100, 1)} %`,
          pass: http <= 0.1,
        },
        {
          target: 'audit on costs <= 10 % per send (core sendMessage)',
          measured: `${fmt(core * 100, 1)} %`,
          pass: core <= 0.1,
        },
      ],
      data,
    };
  } finally {
    await child.stop();
  }
}
