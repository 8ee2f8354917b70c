/** `a2a card validate`: checks Agent Card JSON against the A2A 1.0 schema, with field paths. */
import { isLegacyCard } from '../../client/legacy-card.js';
import { camelCase } from '../../core/schemas/index.js';
import { AgentCard } from '../../core/schemas/index.js';
import { fieldViolations } from '../../core/validate.js';
import type { FieldViolation } from '../../core/errors.js';
import { cardEndpointWarnings, cardWarnings } from '../card-warnings.js';
import { loadJson } from '../card-source.js';
import { EXAMPLE_URL, type Command } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { noExtraArgs, requireArgs } from '../task-helpers.js';

const CARD_FIELDS = new Set([
  'name',
  'description',
  'supportedInterfaces',
  'provider',
  'version',
  'documentationUrl',
  'capabilities',
  'securitySchemes',
  'securityRequirements',
  'defaultInputModes',
  'defaultOutputModes',
  'skills',
  'signatures',
  'iconUrl',
]);

/** The result of validating one card. */
export interface CardValidation {
  valid: boolean;
  source: string;
  violations: FieldViolation[];
  warnings: string[];
}

/** Validates card JSON: schema violations (with dotted field paths) and warnings. */
export function validateCardJson(json: unknown, source: string, headers?: Headers): CardValidation {
  const warnings: string[] = [];
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    for (const key of Object.keys(json)) {
      if (!CARD_FIELDS.has(camelCase(key)))
        warnings.push(`unknown field "${key}" (ignored by readers)`);
    }
  }
  const parsed = AgentCard.safeParse(json);
  const violations = parsed.success ? [] : fieldViolations(parsed.error);
  if (isLegacyCard(json)) {
    violations.unshift({
      field: '',
      description:
        'this is an A2A 0.3 card (top-level url, no supportedInterfaces); A2A 1.0 lists supportedInterfaces',
    });
  }
  if (parsed.success) warnings.push(...cardWarnings(parsed.data));
  if (headers) warnings.push(...cardEndpointWarnings(headers));
  return { valid: violations.length === 0, source, violations, warnings };
}

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
