/** Command-line options of `npm run bench`. */

/** Every scenario, in the order they run. */
export const SCENARIOS = [
  'send',
  'layers',
  'stream',
  'long',
  'store',
  'stores',
  'memory',
  'client',
  'otel',
  'audit',
  'nats',
  'contract-net',
] as const;

/** A scenario name. */
export type ScenarioName = (typeof SCENARIOS)[number];

/** The resolved options. */
export interface BenchOptions {
  smoke: boolean;
  /** Seconds per measurement. */
  durationSec: number;
  rounds: number;
  connections: number;
  scenarios: ScenarioName[];
  /** Extra a2a-kit stores to measure next to `memory` (see servers/stores.ts). */
  stores: string[];
  /** Write `--cpu-prof` profiles of the a2a-kit servers and print their hottest functions. */
  profile: boolean;
  pin: boolean;
  /** Also write the results as JSON here. */
  json: string | undefined;
  /**
   * A git ref (commit, branch, tag) whose a2a-kit is measured next to the working tree's in the
   * same rounds (send, stream, long, memory), so a change is judged against what it changes.
   */
  baseline: string | undefined;
}

/** `npm run bench -- --help`. */
export const USAGE = `usage: npm run bench -- [options]
  --scenarios=a,b   ${SCENARIOS.join(',')} (default: all)
  --duration=S      seconds per measurement (default 5; smoke 0.5)
  --rounds=N        interleaved rounds, medians reported (default 3; smoke 1)
  --connections=N   concurrent connections / streams (default 50; smoke 4)
  --stores=a,b      extra a2a-kit task stores besides memory (see bench/servers/stores.ts)
  --profile         --cpu-prof the a2a-kit servers, print their top self-time functions
  --no-pin          do not pin server and load generator to cores with taskset
  --json=FILE       also write the results as JSON
  --baseline=REF    also measure the a2a-kit of git ref REF (e.g. main, a commit) in the same
                    rounds, and check the working tree stays within 5 % of it (send, stream)
  --smoke           every scenario, very briefly; checks are printed, never enforced`;

/** Parses argv (`--name=value` or `--name value`). */
export function parseOptions(argv: readonly string[]): BenchOptions {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}\n${USAGE}`);
    const eq = arg.indexOf('=');
    if (eq > 0) values.set(arg.slice(2, eq), arg.slice(eq + 1));
    else if (FLAGS.has(arg.slice(2))) values.set(arg.slice(2), 'true');
    else values.set(arg.slice(2), argv[++i] ?? '');
  }
  for (const name of values.keys()) {
    if (!KNOWN.has(name)) throw new Error(`unknown option --${name}\n${USAGE}`);
  }
  const smoke = values.has('smoke');
  const scenarios = list(values.get('scenarios')) ?? [...SCENARIOS];
  for (const s of scenarios) {
    if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`unknown scenario ${s}`);
  }
  return {
    smoke,
    durationSec: number(values.get('duration'), smoke ? 0.5 : 5),
    rounds: Math.max(1, Math.round(number(values.get('rounds'), smoke ? 1 : 3))),
    connections: Math.max(1, Math.round(number(values.get('connections'), smoke ? 4 : 50))),
    scenarios: scenarios as ScenarioName[],
    stores: list(values.get('stores')) ?? [],
    profile: values.has('profile'),
    pin: !values.has('no-pin'),
    json: values.get('json'),
    baseline: values.get('baseline'),
  };
}

const FLAGS = new Set(['smoke', 'profile', 'no-pin', 'help']);
const KNOWN = new Set([
  ...FLAGS,
  'scenarios',
  'duration',
  'rounds',
  'connections',
  'stores',
  'json',
  'baseline',
]);

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function number(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`expected a positive number, got ${value}`);
  return n;
}
