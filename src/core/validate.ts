/** Parsing at trust boundaries: zod failures become INVALID_PARAMS with field violations. */
import type { z } from 'zod';
import { A2AError, type FieldViolation } from './errors.js';
import { MAX_JSON_DEPTH, exceedsDepth } from './json-depth.js';
import { OPERATIONS, type OperationName, type OperationParams } from './operations.js';
import { fastSendMessageRequest } from './schemas/send-message-fast.js';

/** The field violations of a zod error, with dotted paths (`message.parts.0.text`). */
export function fieldViolations(error: z.ZodError, prefix = ''): FieldViolation[] {
  return error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'),
    description: issue.message,
  }));
}

/** A human summary of violations, for error messages. */
export function describeViolations(violations: readonly FieldViolation[]): string {
  return violations
    .slice(0, 5)
    .map((v) => (v.field ? `${v.field}: ${v.description}` : v.description))
    .join('; ');
}

/** Parses `input` with `schema`, or throws A2AError INVALID_PARAMS naming the failing fields. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what: string,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const violations = fieldViolations(result.error);
  throw new A2AError('INVALID_PARAMS', `Invalid ${what}: ${describeViolations(violations)}`, {
    fieldViolations: violations,
  });
}

/** Validates the request of an operation (spec §3.3.2: validate all input, name the fields). */
export function parseParams<N extends OperationName>(name: N, input: unknown): OperationParams<N> {
  if (exceedsDepth(input)) {
    const description = `nests deeper than ${MAX_JSON_DEPTH} levels`;
    throw new A2AError('INVALID_PARAMS', `Invalid ${name} request: ${description}`, {
      fieldViolations: [{ field: '', description }],
    });
  }
  if (name === 'SendMessage' || name === 'SendStreamingMessage') {
    // The common request checked by hand, with what the schema would return (else: the schema).
    const fast = fastSendMessageRequest(input);
    if (fast !== undefined) return fast as OperationParams<N>;
  }
  return parseOrThrow(
    OPERATIONS[name].params,
    input ?? {},
    `${name} request`,
  ) as OperationParams<N>;
}
