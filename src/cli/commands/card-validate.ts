/** `a2a card validate`: checks Agent Card JSON against the A2A 1.0 schema, with field paths. */
import { AgentCard } from '../../core/schemas/index.js';
import { validateCardJson } from '../../client/card-validation.js';
import { loadJson } from '../card-source.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { noExtraArgs, requireArgs } from '../task-helpers.js';

export { validateCardJson, type CardValidation } from '../../client/card-validation.js';

/** The `card validate` verb. */
export const cardValidateCommand: Command = {
  name: 'card validate',
  summary: 'check an Agent Card file or URL against the A2A 1.0 schema',
  usage: ['card validate <file|url>'],
  flags: {},
  flagHelp: [],
  examples: [
    'card validate agent-card.json',
    `card validate ${EXAMPLE_URL}`,
    'card validate agent-card.json -o json | jq .violations',
  ],
  notes: [
    'Prints each violation with its field path; the exit code is 1 when the card is invalid.',
  ],
  async run({ positionals, global, out, signal, errors }) {
    const [source = ''] = requireArgs(positionals, ['the card file or URL']);
    noExtraArgs(positionals, 1);
    const loaded = await loadJson(source, global, errors, signal);
    const result = validateCardJson(loaded.json, loaded.source, loaded.headers);
    if (out.json) {
      out.jsonDoc(result);
      return result.valid ? EXIT.OK : EXIT.AGENT_ERROR;
    }
    const { style } = out;
    if (result.valid) {
      const card = AgentCard.parse(loaded.json);
      out.line(
        `${style.green('✔ valid Agent Card')}: ${card.name} v${card.version} ${style.dim(`(${result.source})`)}`,
      );
    } else {
      const n = result.violations.length;
      out.line(
        `${style.red('✘ invalid Agent Card')} ${style.dim(`(${result.source})`)}: ${n} problem${n === 1 ? '' : 's'}`,
      );
      for (const v of result.violations) {
        out.line(`  ${v.field ? `${style.bold(v.field)}: ` : ''}${v.description}`);
      }
    }
    if (result.warnings.length > 0) {
      out.line(style.yellow(`Warnings (${result.warnings.length})`));
      for (const w of result.warnings) out.line(`  ! ${w}`);
    }
    return result.valid ? EXIT.OK : EXIT.AGENT_ERROR;
  },
};
