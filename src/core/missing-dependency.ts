/**
 * An optional peer package (a store driver, the gRPC packages) that is not installed: a setup
 * problem with one fix, the install command, never a failure of a call or of the transport.
 */

/** What an optional feature needs and how to get it. */
export interface MissingDependency {
  /** The packages needed, e.g. `['@grpc/grpc-js', '@grpc/proto-loader']`. */
  readonly packages: readonly string[];
  /** What needs them, for the message: `the PostgreSQL store`, `gRPC`. */
  readonly feature: string;
  /** The command that installs them: `npm install pg`. */
  readonly install: string;
  /** Another way round, when there is one: `or run with --store memory`. */
  readonly instead?: string | undefined;
}

/** An optional package could not be loaded; `install` is the command that fixes it. */
export class MissingDependencyError extends Error {
  override readonly name = 'MissingDependencyError';
  readonly packages: readonly string[];
  readonly install: string;
  readonly instead: string | undefined;
  /** The message without the install command (the CLI shows that as its hint). */
  readonly problem: string;

  constructor(missing: MissingDependency, cause: unknown) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    const what = missing.packages.length === 1 ? 'package' : 'packages';
    const problem = `${missing.feature} needs the optional ${what} ${missing.packages.join(' and ')}, which could not be loaded (${reason})`;
    super(`${problem}; install with \`${missing.install}\``, { cause });
    this.problem = problem;
    this.packages = missing.packages;
    this.install = missing.install;
    this.instead = missing.instead;
  }
}

/** True when `error` is a failed import of `pkg` itself (not of something inside it). */
export function isMissingPackage(error: unknown, pkg: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    (message.includes(`'${pkg}'`) || message.includes(`"${pkg}"`) || message.includes(`${pkg}/`))
  );
}
