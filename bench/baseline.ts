/**
 * `--baseline=REF`: the a2a-kit of another git ref, measured next to the working tree's in the
 * same rounds. Its src/ and bench/ are taken with `git archive` and transpiled by build.mjs into
 * dist/bench-base/<commit>/run/, inside the repository so that its imports resolve to the same
 * node_modules as ours.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A transpiled baseline tree. */
export interface Baseline {
  /** Label in tables: `a2a-kit @<short commit>`. */
  label: string;
  /** The directory holding its `bench/servers/*.js`. */
  root: string;
}

/** Builds the baseline of `ref` (a commit, branch or tag of this repository). */
export function buildBaseline(ref: string): Baseline {
  const repo = fileURLToPath(new URL('../../../', import.meta.url));
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
  let commit: string;
  try {
    commit = git('rev-parse', '--short', `${ref}^{commit}`);
  } catch {
    throw new Error(`--baseline=${ref}: not a commit of this repository (try main or a hash)`);
  }
  const dir = join(repo, 'dist', 'bench-base', commit);
  const tree = join(dir, 'tree');
  const run = join(dir, 'run');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  const archive = execFileSync('git', ['archive', commit, 'src', 'bench'], {
    cwd: repo,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', tree], { input: archive });
  execFileSync(
    process.execPath,
    [join(repo, 'bench', 'build.mjs'), `--root=${tree}`, `--out=${run}`],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return { label: `a2a-kit @${commit}`, root: run };
}
