/**
 * `a2a inspect` run in process, as the tests of the inspector's command line use it: started
 * with `args` (plus `--port 0 -o json`), resolved once it printed its JSON line (its URL and
 * target), or with a failure naming the exit code when it ends first; `stop()` aborts it and
 * resolves with its exit code.
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

/** Starts `a2a inspect <args> --port 0 -o json`. */
export async function startInspect(args: readonly string[]): Promise<RunningInspect> {
  const controller = new AbortController();
  let out = '';
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
    stderr: { write: () => true },
    env: {},
    signal: controller.signal,
  };
  const running = run(['inspect', ...args, '--port', '0', '-o', 'json'], io);
  const first = await Promise.race([line, running.then((code) => `exited with ${code}`)]);
  if (!first.startsWith('{')) throw new Error(`a2a inspect ${args.join(' ')} ${first}`);
  const json = JSON.parse(first) as Record<string, unknown>;
  return {
    url: String(json.url),
    printed: json,
    stop: () => {
      controller.abort();
      return running;
    },
  };
}
