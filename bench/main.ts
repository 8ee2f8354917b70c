/**
 * `npm run bench`: starts the servers (node:http ceiling, @a2a-js/sdk echo, a2a-kit echo) and
 * the load generator in their own processes, runs the scenarios, prints tables of medians,
 * ratios and PASS/MISS per target of issue 8. See docs/benchmarks.md.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildBaseline } from './baseline.js';
import { chooseHttpGenerator } from './load/generator.js';
import { BenchContext } from './context.js';
import { SCENARIOS, USAGE, parseOptions, type ScenarioName } from './options.js';
import { Child, detectPinning } from './proc.js';
import { summarizeProfiles } from './profile-summary.js';
import { renderChecks, renderSection, type Check, type ScenarioResult } from './report.js';
import { clientScenario } from './scenarios/client.js';
import { layersScenario } from './scenarios/layers.js';
import { longScenario } from './scenarios/long.js';
import { memoryScenario } from './scenarios/memory.js';
import { sendScenario } from './scenarios/send.js';
import { storeScenario } from './scenarios/store.js';
import { storesScenario } from './scenarios/stores.js';
import { streamScenario } from './scenarios/stream.js';
import { otelScenario } from './scenarios/otel.js';
import { auditScenario } from './scenarios/audit.js';
import { natsScenario } from './scenarios/nats.js';
import { contractNetScenario } from './scenarios/contract-net.js';

const RUN: Record<ScenarioName, (ctx: BenchContext) => Promise<ScenarioResult>> = {
  send: sendScenario,
  layers: layersScenario,
  stream: streamScenario,
  long: longScenario,
  store: storeScenario,
  stores: storesScenario,
  memory: memoryScenario,
  client: clientScenario,
  otel: otelScenario,
  audit: auditScenario,
  nats: natsScenario,
  'contract-net': contractNetScenario,
};

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const options = parseOptions(argv);
  const pinning = options.pin ? detectPinning() : undefined;
  const started = performance.now();
  console.log(`# a2a-kit benchmarks${options.smoke ? ' (smoke)' : ''}`);
  console.log(
    `node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? '?'}), ` +
      `${pinning ? `servers on core ${pinning.server}, load generator on core ${pinning.load}` : 'not pinned'}; ` +
      `${options.rounds} round(s) × ${options.durationSec} s, ${options.connections} connections`,
  );
  const baseline = options.baseline === undefined ? undefined : buildBaseline(options.baseline);
  if (baseline !== undefined)
    console.log(`baseline: ${baseline.label} (--baseline=${options.baseline})`);
  const http = chooseHttpGenerator((message) => process.stderr.write(`bench: ${message}\n`));
  console.log(http.note);
  // wrk runs as a child of the load generator process and inherits its core.
  const load = await Child.start({
    name: 'load generator',
    script: fileURLToPath(new URL('./load/worker.js', import.meta.url)),
    args: http.wrk === undefined ? [] : [`--wrk=${http.wrk}`],
    cpu: pinning?.load,
  });
  const profileRoot = fileURLToPath(new URL('../../bench-profiles', import.meta.url));
  const ctx = new BenchContext(options, load, pinning, profileRoot, http, baseline);
  const checks: Check[] = [];
  const data: Record<string, unknown> = {};
  try {
    for (const name of SCENARIOS) {
      if (!options.scenarios.includes(name)) continue;
      ctx.log(`scenario ${name}`);
      const result = await RUN[name](ctx);
      for (const section of result.sections) console.log(`\n${renderSection(section)}`);
      checks.push(...result.checks);
      data[name] = result.data;
    }
  } finally {
    await load.stop();
  }
  if (checks.length > 0) console.log(`\n${renderChecks(checks, options.smoke)}`);
  if (options.profile) console.log(`\n${summarizeProfiles(ctx.profileDirs)}`);
  const seconds = (performance.now() - started) / 1000;
  console.log(`\nbench finished in ${seconds.toFixed(1)} s`);
  if (options.json !== undefined) {
    writeFileSync(options.json, `${JSON.stringify({ options, checks, data }, null, 2)}\n`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench failed:', error);
    process.exit(1);
  },
);
