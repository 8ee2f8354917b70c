/** Runs the `a2a` CLI in-process (its `run()`), capturing output, against the demo agent. */
import { createServer } from 'node:net';
import { run } from '../../src/cli/main.js';
import { startDemo } from '../../src/demo/main.js';
import type { ServeResult } from '../../src/node/index.js';

/** What one CLI run printed and returned. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link cli}. */
export interface CliOptions {
  /** Pretend stdout is a terminal of this width (live display, colors). */
  tty?: number;
  /** Pretend stderr is a terminal of this width (progress of a blocking call). */
  stderrTty?: number;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Called with everything written to stdout so far, after each write. */
  onStdout?: (soFar: string) => void;
}

/** Runs `a2a <argv>` in this process. */
export async function cli(argv: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: {
      write: (chunk: string) => {
        stdout += chunk;
        options.onStdout?.(stdout);
        return true;
      },
      isTTY: options.tty !== undefined,
      columns: options.tty,
    },
    stderr: {
      write: (chunk: string) => (stderr += chunk),
      isTTY: options.stderrTty !== undefined,
      columns: options.stderrTty,
    },
    env: options.env ?? {},
    signal: options.signal,
  });
  return { code, stdout, stderr };
}

/** Runs `a2a <argv> -o json` and parses stdout as one JSON document. */
export async function cliJson<T = Record<string, unknown>>(
  argv: readonly string[],
): Promise<{ code: number; json: T; stderr: string }> {
  const result = await cli([...argv, '-o', 'json']);
  if (result.stdout.trim() === '') throw new Error(`no JSON output; stderr: ${result.stderr}`);
  return { code: result.code, json: JSON.parse(result.stdout) as T, stderr: result.stderr };
}

/** Parses JSON lines (stream output). */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The demo agent on a free port. */
export function startDemoAgent(): Promise<ServeResult> {
  return startDemo({ port: 0, logger: null });
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The task id printed on the `Task` line of the text output. */
export function taskIdIn(stdout: string): string {
  const id = /^Task\s+(\S+)/m.exec(stdout)?.[1];
  if (!id) throw new Error(`no task id in:\n${stdout}`);
  return id;
}

/** The context id printed on the `Context` line of the text output. */
export function contextIdIn(stdout: string): string {
  const id = /^Context\s+(\S+)/m.exec(stdout)?.[1];
  if (!id) throw new Error(`no context id in:\n${stdout}`);
  return id;
}
