/**
 * Requests grpc-js cannot decode (bytes that are no such message, nesting beyond protobuf's
 * recursion limit) or must not (a `string` field that is not UTF-8, see utf8.ts): grpc-js would
 * answer a bare INTERNAL "Error deserializing request", which blames the server and carries no
 * details, or decode U+FFFD in place of the bad bytes. The service decodes tolerantly instead, and
 * the call is refused as INVALID_PARAMS (INVALID_ARGUMENT), like an unparsable body on the HTTP
 * bindings.
 */
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import { A2AError } from '../../core/errors.js';

const UNREADABLE = Symbol('unreadable request');

/** What the tolerant decoder hands the handler instead of a request it refused to decode. */
interface Unreadable {
  /** The refusal of the check, or why the decoder failed. */
  readonly [UNREADABLE]: A2AError | string;
}

/** Checks a method's encoded request before it is decoded: the refusal, or undefined. */
export type RequestCheck = (method: string, bytes: Buffer) => A2AError | undefined;

/** `definition` with request decoders that never throw, running `check` first when given. */
export function tolerantDefinition(
  definition: ServiceDefinition,
  check?: RequestCheck,
): ServiceDefinition {
  const out: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(definition)) {
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer): unknown => {
        try {
          const refused = check?.(name, bytes);
          if (refused) return { [UNREADABLE]: refused } satisfies Unreadable;
          return method.requestDeserialize(bytes);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          return { [UNREADABLE]: reason } satisfies Unreadable;
        }
      },
    };
  }
  return out;
}

/** The INVALID_PARAMS error for a request the decoder refused, else undefined. */
export function unreadableError(request: unknown, type: string): A2AError | undefined {
  if (typeof request !== 'object' || request === null || !(UNREADABLE in request)) return undefined;
  const refused = (request as Unreadable)[UNREADABLE];
  if (refused instanceof A2AError) return refused;
  return new A2AError('INVALID_PARAMS', `The request is not a valid ${type} message: ${refused}`);
}
