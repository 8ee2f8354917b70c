/** The exit codes of `a2a`, documented in `a2a --help`. */
export const EXIT = {
  /** The command did what was asked. */
  OK: 0,
  /** The agent answered with a spec error (A2AError), or the task ended FAILED or REJECTED. */
  AGENT_ERROR: 1,
  /** Bad usage (unknown verb or flag, missing argument, invalid value), or a missing optional package. */
  USAGE: 2,
  /** Transport failure: host unreachable, timeout, not an A2A agent, invalid response. */
  TRANSPORT: 3,
  /** Authentication needed or refused (HTTP 401/403). */
  AUTH: 4,
  /** Interrupted with Ctrl+C. */
  INTERRUPTED: 130,
} as const;

/** One of {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit-code table printed by `a2a --help`. */
export const EXIT_CODE_HELP: readonly (readonly [number, string])[] = [
  [EXIT.OK, 'success'],
  [EXIT.AGENT_ERROR, 'the agent answered with an A2A error, or the task ended FAILED or REJECTED'],
  [
    EXIT.USAGE,
    'bad usage (unknown verb or flag, missing or invalid argument), or an optional package to install',
  ],
  [
    EXIT.TRANSPORT,
    'transport failure: host unreachable, timeout, not an A2A agent, bad response, version mismatch',
  ],
  [EXIT.AUTH, 'authentication required or refused (HTTP 401/403)'],
  [EXIT.INTERRUPTED, 'interrupted (Ctrl+C)'],
];

/** A failure the CLI reports itself, with the exit code and a hint saying what to do. */
export class CliError extends Error {
  override readonly name: string = 'CliError';
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Bad usage (exit 2); `hint` usually points at `--help`. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(EXIT.USAGE, message, hint);
  }
}
