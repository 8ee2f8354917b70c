/**
 * `a2a` commands run in process, as the tests of the inspector's command line use them
 * (`a2a inspect`, `a2a serve --inspector`): started with `-o json`, resolved once they printed
 * their JSON line, or with a failure naming the exit code and standard error when they end
 * first; `stop()` aborts them and resolves with the exit code.
 */
import { run } from '../../src/cli/main.js';

/** A running `a2a inspect`. */
export interface RunningInspect {
  /** The inspector's URL (`http://127.0.0.1:<port>/`). */
  readonly url: string;
  /** The whole JSON line it printed. */
  readonly printed: Record<string, unknown>;
  /** Stops it; its exit code. */
  stop(): Promise<number>;
}

/** A running `a2a <command>` that printed its JSON line. */
export interface RunningCli {
  /** The JSON line it printed, its values as strings. */
  readonly json: Record<string, string>;
  /** Stops it; its exit code. */
  stop(): Promise<number>;
}

/**
 * Starts `a2a <args> -o json` in process; resolves once it printed its JSON line, or fails with
 * its exit code and standard error when it ends first.
 */
export async function startCli(args: readonly string[]): Promise<RunningCli> {
  const controller = new AbortController();
  let out = '';
  let err = '';
  let printed: (line: string) => void = () => undefined;
  const line = new Promise<string>((resolve) => (printed = resolve));
  const io = {
    stdout: {
      write: (s: string) => {
        out += s;
        // The whole JSON line, however the output is split into writes.
        const whole = out.split('\n').find((l, n, all) => n < all.length - 1 && l.startsWith('{'));
        if (whole) printed(whole);
        return true;
      },
    },
    stderr: { write: (s: string) => ((err += s), true) },
    env: {},
    signal: controller.signal,
  };
  const running = run([...args, '-o', 'json'], io);
  const first = await Promise.race([line, running.then((code) => `exited with ${code}: ${err}`)]);
  if (!first.startsWith('{')) throw new Error(`a2a ${args.join(' ')} ${first}`);
  return {
    json: JSON.parse(first) as Record<string, string>,
    stop: () => {
      controller.abort();
      return running;
    },
  };
}

/** Starts `a2a inspect <args> --port 0 -o json`. */
export async function startInspect(args: readonly string[]): Promise<RunningInspect> {
  const cli = await startCli(['inspect', ...args, '--port', '0']);
  return { url: String(cli.json.url), printed: cli.json, stop: () => cli.stop() };
}
