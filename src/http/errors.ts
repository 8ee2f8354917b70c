/** Error answers of the HTTP layer: the google.rpc.Status body (spec §11.6) and error hygiene. */
import { A2AError, ERROR_CATALOG, errorDetails, isA2AError } from '../core/errors.js';
import type { HttpResponse, InternalErrorReporter } from './types.js';

/**
 * The A2AError to put on the wire for anything thrown. Spec errors pass through; anything else is
 * a bug: it is reported to `onError` and answered with a generic INTERNAL error, so internals
 * never leak to the caller (spec §13.4).
 */
export function toA2AError(error: unknown, onError: InternalErrorReporter): A2AError {
  if (isA2AError(error)) return error;
  try {
    onError(error);
  } catch {
    // A failing reporter must not turn one error into a crash.
  }
  return new A2AError('INTERNAL');
}

/** The google.rpc.Status JSON of an error: `{"error":{code,status,message,details}}` (spec §11.6). */
export function statusJson(error: A2AError): string {
  const mapping = ERROR_CATALOG[error.code];
  return JSON.stringify({
    error: {
      code: mapping.http,
      status: mapping.grpc,
      message: error.message,
      details: errorDetails(error),
    },
  });
}

/** A complete HTTP error response with the catalog's HTTP status and a google.rpc.Status body. */
export function statusResponse(
  error: A2AError,
  contentType: string,
  headers?: Record<string, string>,
): HttpResponse {
  return {
    status: ERROR_CATALOG[error.code].http,
    headers: { ...headers, 'content-type': contentType },
    body: statusJson(error),
  };
}

/** Logs unexpected errors to stderr: the default {@link InternalErrorReporter}. */
export function logInternalError(error: unknown): void {
  console.error('[a2a-kit] internal error while handling a request:', error);
}
