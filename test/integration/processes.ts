/**
 * Real server processes for the crash and soak suites: src/, examples/ and the fixtures are
 * transpiled file by file (no type check, as `npm run bench` does) into dist/integration-run/,
 * then started with `node`, so a test can `kill -9` them. Every process started is killed when
 * the test file ends, whatever happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [path] : [];
  });
}

let built: string | undefined;

/**
 * Transpiles what the processes run into dist/integration-run/ and returns that folder. Only
 * files changed since their last transpiling are redone, so the suites of one run share the
 * work (a cold build takes several seconds).
 */
export function buildForProcesses(): string {
  if (built) return built;
  const out = join(root, 'dist', 'integration-run');
  const dirs = ['src', 'examples', 'test/integration/fixtures'];
  for (const file of dirs.flatMap((d) => sources(join(root, d)))) {
    const target = join(out, relative(root, file)).replace(/\.ts$/, '.js');
    if (existsSync(target) && statSync(target).mtimeMs >= statSync(file).mtimeMs) continue;
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        verbatimModuleSyntax: true,
      },
      fileName: file,
    });
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  built = out;
  return out;
}

/** A server process and what it printed. */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Lines of stdout starting with `prefix`, without it. */
  lines(prefix: string): string[];
  /** Sends the signal and waits for the exit (bounded). */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts `node <script> <args>` (script relative to the transpiled root) and waits for the line
 * that gives its URL: the demo's banner `Agent Card  <url>/...` or a fixture's `READY <url>`.
 */
export async function startServer(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
  nodeFlags: readonly string[] = [],
): Promise<ServerProcess> {
  const out = buildForProcesses();
  const child = spawn(process.execPath, [...nodeFlags, join(out, script), ...args], {
    cwd: out,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start in 20 s:\n${text}`)),
      20_000,
    );
    const look = () => {
      const found = /(?:Agent Card\s+|READY )(http:\/\/[^/\s]+)/.exec(text)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}) before it listened:\n${text}`));
    });
  });
  return {
    url,
    pid: child.pid ?? 0,
    output: () => text,
    lines: (prefix) =>
      text
        .split('\n')
        .filter((line) => line.startsWith(prefix))
        .map((line) => line.slice(prefix.length)),
    kill: async (signal = 'SIGKILL') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) {
        throw new Error(`${script} (pid ${child.pid}) did not exit after ${signal}`);
      }
    },
  };
}
