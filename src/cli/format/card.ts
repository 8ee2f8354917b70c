/** The readable form of an Agent Card (discover). */
import { describeSecuritySchemes } from '../../client/credentials.js';
import type { AgentCard, AgentInterface, SecurityRequirement } from '../../core/schemas/index.js';
import type { Style } from '../io.js';
import { table, wrap } from './text.js';

/** What the card view needs besides the card. */
export interface CardView {
  /** Where the card came from. */
  source: string;
  /** The interface this client would use (marked in the list). */
  selected?: AgentInterface | undefined;
  warnings: readonly string[];
  width: number;
}

const yesNo = (value: boolean | undefined, style: Style) =>
  value === true ? style.green('yes') : style.dim('no');

/** Every section of the card, in reading order. */
export function cardLines(card: AgentCard, view: CardView, style: Style): string[] {
  const lines = [
    `${style.bold(card.name)}  ${style.dim(`v${card.version}`)}`,
    wrap(card.description, view.width),
    '',
    ...table([
      [style.bold('Card'), view.source],
      [
        style.bold('Provider'),
        card.provider ? `${card.provider.organization} (${card.provider.url})` : '-',
      ],
      ...(card.documentationUrl ? [[style.bold('Docs'), card.documentationUrl]] : []),
    ]),
    '',
    style.bold('Interfaces (in preference order)'),
    ...table(
      card.supportedInterfaces.map((iface, i) => [
        `  ${i + 1}.`,
        iface.protocolBinding,
        `A2A ${iface.protocolVersion}`,
        iface.url +
          (iface.tenant ? ` tenant=${iface.tenant}` : '') +
          (iface === view.selected ? style.green('  ← this client uses it') : ''),
      ]),
    ),
    '',
    style.bold('Capabilities'),
    `  streaming: ${yesNo(card.capabilities.streaming, style)}   push notifications: ${yesNo(card.capabilities.pushNotifications, style)}   extended card: ${yesNo(card.capabilities.extendedAgentCard, style)}`,
    ...(card.capabilities.extensions ?? []).map(
      (e) =>
        `  extension ${e.uri ?? '(no uri)'}${e.required ? style.yellow(' (required)') : ''}${e.description ? `: ${e.description}` : ''}`,
    ),
    `  input: ${card.defaultInputModes.join(', ')}   output: ${card.defaultOutputModes.join(', ')}`,
    '',
    ...securityLines(card, style),
    '',
    ...skillLines(card, view.width, style),
  ];
  if ((card.signatures ?? []).length > 0) {
    lines.push(
      '',
      `${style.bold('Signatures')}  ${card.signatures?.length ?? 0} (check them with \`a2a card verify\`)`,
    );
  }
  lines.push('');
  if (view.warnings.length === 0) lines.push(style.green('No warnings.'));
  else {
    lines.push(style.yellow(style.bold(`Warnings (${view.warnings.length})`)));
    for (const w of view.warnings) lines.push(`  !${wrap(w, view.width, '    ').slice(3)}`);
  }
  return lines;
}

function securityLines(card: AgentCard, style: Style): string[] {
  const schemes = describeSecuritySchemes(card);
  if (schemes.length === 0) return [`${style.bold('Security')}  none: the agent is public`];
  const lines = [style.bold('Security'), ...schemes.map((s) => `  scheme ${s}`)];
  const required = card.securityRequirements ?? [];
  if (required.length > 0) lines.push(`  required: ${requirementText(required)}`);
  lines.push(style.dim('  pass credentials with --token TOKEN or --api-key [NAME=]VALUE'));
  return lines;
}

/** `a + b or c` (OR of ANDs, OpenAPI semantics). */
function requirementText(requirements: readonly SecurityRequirement[]): string {
  return requirements
    .map((r) =>
      Object.entries(r.schemes ?? {})
        .map(([name, scopes]) =>
          scopes.list?.length ? `${name} [${scopes.list.join(' ')}]` : name,
        )
        .join(' + '),
    )
    .join(' or ');
}

function skillLines(card: AgentCard, width: number, style: Style): string[] {
  const lines = [style.bold(`Skills (${card.skills.length})`)];
  for (const skill of card.skills) {
    const tags = skill.tags.length ? style.dim(` [${skill.tags.join(', ')}]`) : '';
    lines.push(`  ${style.cyan(skill.id)}  ${skill.name}${tags}`);
    lines.push(wrap(skill.description, width, '    '));
    if (skill.examples?.length) {
      lines.push(`    examples: ${skill.examples.join('  ·  ')}`);
    }
    const modes = [
      skill.inputModes?.length ? `in: ${skill.inputModes.join(', ')}` : '',
      skill.outputModes?.length ? `out: ${skill.outputModes.join(', ')}` : '',
    ].filter(Boolean);
    if (modes.length) lines.push(style.dim(`    ${modes.join('   ')}`));
  }
  return lines;
}
