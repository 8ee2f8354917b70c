/**
 * Which HTTP load generator the bench uses: wrk (native; the Debian package `wrk`), installed
 * with apt-get when it is missing and this process may (root, apt-get present), else autocannon,
 * which the report then flags: a JavaScript generator saturates before a fast server does, so
 * the ceiling and the ratios to it would be the generator's, not the servers'.
 */
import { spawnSync } from 'node:child_process';

/** The outcome of the search. */
export interface HttpGeneratorChoice {
  /** Absolute path of wrk; undefined: autocannon. */
  wrk: string | undefined;
  /** One line for the report's header. */
  note: string;
}

function which(program: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path !== '' ? path : undefined;
}

function aptInstall(log: (message: string) => void): boolean {
  if (process.getuid?.() !== 0 || which('apt-get') === undefined) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'wrk'], {
      stdio: 'ignore',
      env,
    }).status === 0;
  log('wrk is missing: apt-get install wrk');
  if (install()) return true;
  spawnSync('apt-get', ['update'], { stdio: 'ignore', env });
  return install();
}

/** Finds (or installs) wrk; `A2A_BENCH_GENERATOR=autocannon` forces the fallback. */
export function chooseHttpGenerator(log: (message: string) => void): HttpGeneratorChoice {
  if (process.env.A2A_BENCH_GENERATOR === 'autocannon') {
    return { wrk: undefined, note: FALLBACK('A2A_BENCH_GENERATOR=autocannon') };
  }
  let wrk = which('wrk');
  if (wrk === undefined && aptInstall(log)) wrk = which('wrk');
  if (wrk !== undefined) return { wrk, note: `HTTP load: wrk (${wrk}), one thread` };
  return { wrk: undefined, note: FALLBACK('wrk not found and not installable here') };
}

const FALLBACK = (why: string) =>
  `WARNING: HTTP load from autocannon (${why}). autocannon saturates before the servers do: ` +
  'the ceiling and every ratio to it are the load generator’s; install wrk (apt-get install wrk).';
