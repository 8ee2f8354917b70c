/** `a2a --help` and `a2a <verb> --help`: what each verb does, its usage, flags and examples. */
import type { Command } from './command.js';
import { EXAMPLE_URL } from './command.js';
import { EXIT_CODE_HELP } from './exit-codes.js';
import type { Style } from './io.js';
import { GLOBAL_FLAG_HELP } from './options.js';
import { table } from './format/text.js';

/** The overview: grammar, every verb with its usage, global flags, exit codes, first steps. */
export function mainHelp(commands: readonly Command[], version: string, style: Style): string[] {
  const { bold, dim } = style;
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    `${bold('a2a')} ${version}: call any Agent2Agent (A2A) 1.0 agent from the shell`,
    '',
    `${bold('Usage')}  a2a <verb> [noun] <url> [arguments] [flags]`,
    '',
    bold('Verbs'),
    ...commands.flatMap((c) => [
      `  ${bold(c.name.padEnd(width))}${c.summary}`,
      dim(`  ${''.padEnd(width)}a2a ${c.usage[0] ?? c.name}`),
    ]),
    '',
    bold('Global flags (every verb)'),
    ...table(GLOBAL_FLAG_HELP.map(([flag, text]) => [`  ${flag}`, text])),
    '',
    bold('Exit codes'),
    ...EXIT_CODE_HELP.map(([code, text]) => `  ${String(code).padEnd(4)}${text}`),
    '',
    bold('Try it'),
    '  a2a serve                                   # the demo agent on ' + EXAMPLE_URL,
    `  a2a discover ${EXAMPLE_URL}`,
    `  a2a send ${EXAMPLE_URL} echo hello`,
    `  a2a send --stream ${EXAMPLE_URL} story 5`,
    '  a2a demo                                    # the whole task lifecycle, step by step',
    '',
    dim(
      '`a2a <verb> --help` shows the flags and examples of one verb. Colors only on a terminal; set NO_COLOR to turn them off.',
    ),
  ];
}

/** The help of one verb: summary, usage, its flags, the global flags, examples, notes. */
export function commandHelp(command: Command, style: Style): string[] {
  const { bold } = style;
  const lines = [
    `${bold(`a2a ${command.name}`)}: ${command.summary}`,
    '',
    bold('Usage'),
    ...command.usage.map((u) => `  a2a ${u}`),
  ];
  if (command.flagHelp.length > 0) {
    lines.push('', bold('Flags'), ...table(command.flagHelp.map(([f, t]) => [`  ${f}`, t])));
  }
  lines.push('', bold('Global flags'), ...table(GLOBAL_FLAG_HELP.map(([f, t]) => [`  ${f}`, t])));
  lines.push('', bold('Examples'), ...command.examples.map((e) => `  a2a ${e}`));
  if (command.notes?.length) lines.push('', ...command.notes);
  return lines;
}

/** A group of verbs (`a2a card --help`): each one's summary and usage. */
export function groupHelp(group: string, commands: readonly Command[], style: Style): string[] {
  return commands
    .flatMap((c) => [
      `${style.bold(`a2a ${c.name}`)}: ${c.summary}`,
      ...c.usage.map((u) => `  a2a ${u}`),
      '',
    ])
    .concat(style.dim(`\`a2a ${group} <command> --help\` shows the flags and examples of one.`));
}
