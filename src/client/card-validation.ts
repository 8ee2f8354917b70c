/**
 * Agent Card validation shared by `a2a card validate` and the web inspector: schema violations
 * with dotted field paths, a 0.3 card named as such, and the warnings of card-warnings.ts.
 */
import type { FieldViolation } from '../core/errors.js';
import { AgentCard, camelCase } from '../core/schemas/index.js';
import { fieldViolations } from '../core/validate.js';
import { cardEndpointWarnings, cardWarnings } from './card-warnings.js';
import { isLegacyCard } from './legacy-card.js';
import type { ReplyHeaders } from '../transport/http-send.js';

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
export function validateCardJson(
  json: unknown,
  source: string,
  headers?: ReplyHeaders,
): CardValidation {
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
