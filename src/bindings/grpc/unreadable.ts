/**
 * Requests grpc-js cannot decode (bytes that are no such message, nesting beyond protobuf's
 * recursion limit): grpc-js would answer a bare INTERNAL "Error deserializing request", which
 * blames the server and carries no details. The service decodes tolerantly instead, and the call
 * is refused as INVALID_PARAMS (INVALID_ARGUMENT), like an unparsable body on the HTTP bindings.
 */
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import { A2AError } from '../../core/errors.js';

const UNREADABLE = Symbol('unreadable request');

/** What the tolerant decoder hands the handler instead of a request it could not decode. */
interface Unreadable {
  readonly [UNREADABLE]: string;
}

/** `definition` with request decoders that never throw. */
export function tolerantDefinition(definition: ServiceDefinition): ServiceDefinition {
  const out: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(definition)) {
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer): unknown => {
        try {
          return method.requestDeserialize(bytes);
        } catch (error) {
          const unreadable: Unreadable = {
            [UNREADABLE]: error instanceof Error ? error.message : String(error),
          };
          return unreadable;
        }
      },
    };
  }
  return out;
}

/** The INVALID_PARAMS error for a request the decoder could not read, else undefined. */
export function unreadableError(request: unknown, type: string): A2AError | undefined {
  if (typeof request !== 'object' || request === null || !(UNREADABLE in request)) return undefined;
  const reason = (request as Unreadable)[UNREADABLE];
  return new A2AError('INVALID_PARAMS', `The request is not a valid ${type} message: ${reason}`);
}
