/** The shape of one verb: its help, its flags and what it runs. */
import type { ErrorContext } from './describe-error.js';
import type { ExitCode } from './exit-codes.js';
import type { CliIo, Output } from './io.js';
import type { FlagSpecs, FlagValues, GlobalOptions } from './options.js';

/** Everything a verb needs to run. */
export interface CommandContext {
  /** Positional arguments after the verb (and its noun). */
  readonly positionals: string[];
  /** Every parsed flag, global ones included. */
  readonly values: FlagValues;
  readonly global: GlobalOptions;
  readonly out: Output;
  readonly io: CliIo;
  /** Fires on Ctrl+C. */
  readonly signal: AbortSignal;
  /** Filled in while the verb runs (URL, card), so errors can say what to do. */
  readonly errors: ErrorContext;
}

/** One verb (`send`) or verb-noun pair (`card validate`). */
export interface Command {
  /** As typed: `send`, `card validate`. */
  readonly name: string;
  /** One line, shown in `a2a --help`. */
  readonly summary: string;
  /** Usage lines without the leading `a2a `. */
  readonly usage: readonly string[];
  /** The verb's own flags (the global ones are added). */
  readonly flags: FlagSpecs;
  /** Help for each of the verb's flags. */
  readonly flagHelp: readonly (readonly [string, string])[];
  /** Real command lines, without the leading `a2a `. */
  readonly examples: readonly string[];
  /** Extra paragraphs for `a2a <verb> --help`. */
  readonly notes?: readonly string[];
  run(context: CommandContext): Promise<ExitCode>;
}

/** The URL used in every help example: the demo agent's default address. */
export const EXAMPLE_URL = 'http://127.0.0.1:8765';
