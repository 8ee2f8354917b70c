#!/usr/bin/env node
/**
 * `a2a`: the A2A command line. `run()` is the whole program with its input and output injected
 * (tests call it in-process); run as a script, it wires it to the real process.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from './command.js';
import { COMMANDS } from './commands/index.js';
import { describeError, type ErrorContext } from './describe-error.js';
import { EXIT, UsageError } from './exit-codes.js';
import { commandHelp, groupHelp, mainHelp } from './help.js';
import { Output, styleFor, type CliIo } from './io.js';
import { booleanFlag, GLOBAL_FLAGS, globalOptions, parseFlags } from './options.js';

/** The a2a-kit version, from the package.json above this file (src/ or dist/src/). */
export function cliVersion(): string {
  let dir = fileURLToPath(new URL('.', import.meta.url));
  for (let i = 0; i < 8; i++) {
    try {
      const pkg = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'a2a-kit' && pkg.version) return pkg.version;
    } catch {
      // not here: look one level up
    }
    dir = `${dir}/..`;
  }
  return 'unknown';
}

/** Where the verb (and noun) sit in argv: global flags may come before them. */
function findVerb(argv: readonly string[]): { words: string[]; rest: string[] } {
  const takesValue = new Set(
    Object.entries(GLOBAL_FLAGS).flatMap(([name, spec]) =>
      spec.type === 'string' ? [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])] : [],
    ),
  );
  const rest = [...argv];
  const words: string[] = [];
  for (let i = 0; i < rest.length;) {
    const arg = rest[i] ?? '';
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      i += takesValue.has(arg) ? 2 : 1;
      continue;
    }
    // Groups and `help` take one more word: `card validate`, `push receive`, `help card sign`.
    const last = words[words.length - 1];
    if (last !== undefined && !GROUPS.includes(last) && last !== 'help') break;
    words.push(arg);
    rest.splice(i, 1);
  }
  return { words, rest };
}

/** Verbs that group several commands under a second word (`card` of `card validate`). */
const GROUPS: readonly string[] = [
  ...new Set(COMMANDS.flatMap((c) => (c.name.includes(' ') ? [c.name.split(' ')[0] ?? ''] : []))),
];

function resolveCommand(words: readonly string[]): Command {
  const [verb = '', noun] = words;
  if (GROUPS.includes(verb)) {
    const prefix = `${verb} `;
    const nouns = COMMANDS.filter((c) => c.name.startsWith(prefix)).map((c) =>
      c.name.slice(prefix.length),
    );
    const found = COMMANDS.find((c) => c.name === `${prefix}${noun ?? ''}`);
    if (found) return found;
    throw new UsageError(
      noun ? `unknown ${verb} command "${noun}"` : `missing ${verb} command`,
      `use one of: ${nouns.map((n) => `a2a ${prefix}${n}`).join(', ')}`,
    );
  }
  const found = COMMANDS.find((c) => c.name === verb);
  if (found) return found;
  const near = COMMANDS.map((c) => c.name).filter((n) => closeTo(verb, n.split(' ')[0] ?? n));
  throw new UsageError(
    `unknown verb "${verb}"`,
    near.length ? `did you mean ${near.map((n) => `a2a ${n}`).join(' or ')}?` : 'see `a2a --help`',
  );
}

/** True when `a` is a typo of `b` (edit distance at most 2, or a prefix). */
function closeTo(a: string, b: string): boolean {
  if (a.length >= 3 && b.startsWith(a)) return true;
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0] ?? 0;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j] ?? 0;
      d[j] = Math.min((d[j] ?? 0) + 1, (d[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return (d[b.length] ?? 99) <= 2;
}

/** Runs `a2a` with `argv` (without node and the script); resolves to the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const errors: ErrorContext = {};
  let json =
    argv.some((a, i) => (a === '-o' || a === '--output') && argv[i + 1] === 'json') ||
    argv.includes('--output=json');
  try {
    const { words, rest } = findVerb(argv);
    if (words[0] === 'help' || words.length === 0) {
      const { values } = parseFlags(rest, {});
      const style = styleFor(io.stdout, io.env);
      if (booleanFlag(values, 'version')) {
        io.stdout.write(`${cliVersion()}\n`);
        return EXIT.OK;
      }
      const target = words.length > 1 ? resolveCommand(words.slice(1)) : undefined;
      if (words.length === 0 && !booleanFlag(values, 'help')) {
        throw new UsageError('missing verb', 'see `a2a --help`');
      }
      const lines = target ? commandHelp(target, style) : mainHelp(COMMANDS, cliVersion(), style);
      io.stdout.write(`${lines.join('\n')}\n`);
      return EXIT.OK;
    }
    const group = words[0];
    if (
      group &&
      GROUPS.includes(group) &&
      words.length === 1 &&
      /^(-h|--help)$/.test(rest[0] ?? '')
    ) {
      const cards = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
      io.stdout.write(`${groupHelp(group, cards, styleFor(io.stdout, io.env)).join('\n')}\n`);
      return EXIT.OK;
    }
    const command = resolveCommand(words);
    const { values, positionals } = parseFlags(rest, command.flags);
    const out = new Output(io, false);
    if (booleanFlag(values, 'help')) {
      io.stdout.write(`${commandHelp(command, out.style).join('\n')}\n`);
      return EXIT.OK;
    }
    if (booleanFlag(values, 'version')) {
      io.stdout.write(`${cliVersion()}\n`);
      return EXIT.OK;
    }
    const global = globalOptions(values);
    json = global.json;
    const signal = io.signal ?? new AbortController().signal;
    return await command.run({
      positionals,
      values,
      global,
      out: new Output(io, global.json),
      io,
      signal,
      errors,
    });
  } catch (error) {
    const report = describeError(error, errors);
    if (json) {
      io.stderr.write(`${JSON.stringify({ error: { ...report } })}\n`);
    } else {
      const style = styleFor(io.stderr, io.env);
      io.stderr.write(`${style.red('error:')} ${report.message}\n`);
      if (report.hint) io.stderr.write(`${style.dim(`hint: ${report.hint}`)}\n`);
      // An empty hint: the message already says what to do (a taken port), so no pointer either.
      if (report.exitCode === EXIT.USAGE && report.hint === undefined) {
        io.stderr.write('see `a2a --help`\n');
      }
    }
    return report.exitCode;
  }
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

/**
 * `a2a get … | head`: once the reader has gone, the rest of the output has nowhere to go. End
 * quietly, as a shell tool does on SIGPIPE, instead of dying with a stack on EPIPE.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT.OK);
  });
}

if (isEntryPoint()) {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(EXIT.INTERRUPTED); // a second Ctrl+C does not wait
    controller.abort();
  });
  process.on('SIGTERM', () => controller.abort());
  process.exitCode = await run(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signal: controller.signal,
  });
}
