/** What every scenario gets: the options, the load generator, and a way to start servers. */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Baseline } from './baseline.js';
import type { HttpGeneratorChoice } from './load/generator.js';
import type { BenchOptions } from './options.js';
import { Child, type Pinning } from './proc.js';

/** The server programs of servers/. */
export type ServerScript = 'ceiling' | 'a2ajs' | 'kit';

/** One server to start. */
export interface ServerSpec {
  /** Label in tables (`a2a-kit`, `@a2a-js/sdk`, …). */
  name: string;
  script: ServerScript;
  /** `--name=value` settings (kit: `--store`, `--max-tasks`). */
  args?: string[];
  /** Start with `--expose-gc` (memory scenarios). */
  gc?: boolean;
  /** The transpiled tree the script comes from (a `--baseline`); ours by default. */
  root?: string;
}

/** Shared state of one bench run. */
export class BenchContext {
  /** Directories where `--cpu-prof` profiles were written. */
  readonly profileDirs: string[] = [];

  constructor(
    readonly options: BenchOptions,
    readonly load: Child,
    readonly pinning: Pinning | undefined,
    private readonly profileRoot: string,
    /** The HTTP load generator of the run (wrk, or the autocannon fallback). */
    readonly http: HttpGeneratorChoice,
    /** The `--baseline` build, measured next to ours. */
    readonly baseline?: Baseline,
  ) {}

  /** Starts servers (in parallel), each pinned to the server core. */
  async startServers(scenario: string, specs: readonly ServerSpec[]): Promise<Map<string, Child>> {
    const settled = await Promise.allSettled(specs.map((spec) => this.startServer(scenario, spec)));
    const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed !== undefined) {
      await Promise.all(started.map((child) => child.stop()));
      throw failed.reason;
    }
    return new Map(started.map((child) => [child.name, child]));
  }

  /** Stops servers (profiles are written as they exit). */
  async stopServers(servers: Map<string, Child>): Promise<void> {
    await Promise.all([...servers.values()].map((s) => s.stop()));
  }

  /** Progress on stderr, so stdout stays the report. */
  log(message: string): void {
    process.stderr.write(`bench: ${message}\n`);
  }

  private startServer(scenario: string, spec: ServerSpec): Promise<Child> {
    const flags: string[] = [];
    if (spec.gc === true) flags.push('--expose-gc');
    if (this.options.profile && spec.script === 'kit') {
      const dir = `${this.profileRoot}/${scenario}`;
      mkdirSync(dir, { recursive: true });
      if (!this.profileDirs.includes(dir)) this.profileDirs.push(dir);
      flags.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
    }
    return Child.start({
      name: spec.name,
      script:
        spec.root === undefined
          ? fileURLToPath(new URL(`./servers/${spec.script}.js`, import.meta.url))
          : `${spec.root}/bench/servers/${spec.script}.js`,
      args: spec.args ?? [],
      cpu: this.pinning?.server,
      nodeFlags: flags,
    });
  }
}

/** Labels of the targets. */
export const CEILING = 'node:http ceiling';
export const A2AJS = '@a2a-js/sdk 1.3';
export const KIT = 'a2a-kit';
/** a2a-kit (memory store) with the audit chain on (`audit: true`). */
export const KIT_AUDIT = 'a2a-kit +audit';

/** The a2a-kit label for a store (`a2a-kit` for memory, `a2a-kit (sqlite)` otherwise). */
export function kitName(store: string): string {
  return store === 'memory' ? KIT : `${KIT} (${store})`;
}

/** The label of a2a-kit on a store with the audit chain on ({@link KIT_AUDIT} for memory). */
export function auditedName(store: string): string {
  return `${kitName(store)} +audit`;
}

/**
 * The a2a-kit servers of a run: memory plus every `--stores` entry, and the `--baseline` build
 * (memory store) when there is one.
 */
export function kitServers(ctx: BenchContext, gc = false): ServerSpec[] {
  const ours = ['memory', ...ctx.options.stores].map((store) => ({
    name: kitName(store),
    script: 'kit' as const,
    args: [`--store=${store}`],
    gc,
  }));
  const { baseline } = ctx;
  if (baseline === undefined) return ours;
  return [
    ...ours,
    { name: baseline.label, script: 'kit', args: ['--store=memory'], gc, root: baseline.root },
  ];
}

/** `items` rotated by `round`, so no target always runs first (or right after another). */
export function rotate<T>(items: readonly T[], round: number): T[] {
  const k = round % Math.max(1, items.length);
  return [...items.slice(k), ...items.slice(0, k)];
}
