/**
 * Where the CLI writes and what it knows about its terminal: injected, so the whole command runs
 * in-process under test with plain buffers, and in a real process with stdout/stderr.
 */

/** A writable text sink (process.stdout, a test buffer). */
export interface TextSink {
  write(chunk: string): unknown;
  /** True on an interactive terminal. */
  readonly isTTY?: boolean | undefined;
  /** Terminal width, when known. */
  readonly columns?: number | undefined;
}

/** The outside world of one CLI run. */
export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  env: Readonly<Record<string, string | undefined>>;
  /** Fires on Ctrl+C: commands stop streaming and servers shut down. */
  signal?: AbortSignal | undefined;
}

/** ANSI styling that collapses to plain text when colors are off. */
export interface Style {
  readonly enabled: boolean;
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly magenta: (text: string) => string;
}

const wrap =
  (on: boolean, open: number, close: number) =>
  (text: string): string =>
    on && text ? `\x1b[${open}m${text}\x1b[${close}m` : text;

/** Colors only on a TTY and when NO_COLOR is unset or empty (https://no-color.org). */
export function styleFor(sink: TextSink, env: CliIo['env']): Style {
  const on = sink.isTTY === true && !env.NO_COLOR;
  return {
    enabled: on,
    bold: wrap(on, 1, 22),
    dim: wrap(on, 2, 22),
    red: wrap(on, 31, 39),
    green: wrap(on, 32, 39),
    yellow: wrap(on, 33, 39),
    cyan: wrap(on, 36, 39),
    magenta: wrap(on, 35, 39),
  };
}

/** Output mode and line writers of one run. */
export class Output {
  readonly style: Style;
  readonly errStyle: Style;

  constructor(
    readonly io: CliIo,
    readonly json: boolean,
  ) {
    this.style = styleFor(io.stdout, io.env);
    this.errStyle = styleFor(io.stderr, io.env);
  }

  /** True when stdout is an interactive terminal (live progress display). */
  get tty(): boolean {
    return this.io.stdout.isTTY === true;
  }

  /** Usable width of stdout. */
  get columns(): number {
    return Math.max(20, this.io.stdout.columns ?? 100);
  }

  /** One line on stdout. */
  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  /** Raw text on stdout. */
  write(text: string): void {
    this.io.stdout.write(text);
  }

  /** One JSON value per line on stdout (ProtoJSON for scripts). */
  jsonLine(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value)}\n`);
  }

  /** A pretty-printed JSON document on stdout. */
  jsonDoc(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** One line on stderr. */
  error(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }
}
