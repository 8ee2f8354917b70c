/** Error answers of the HTTP layer: the google.rpc.Status body (spec §11.6). */
import { type A2AError, ERROR_CATALOG, errorDetails } from '../core/errors.js';
import type { HttpResponse } from './types.js';
import { withFields } from '../core/with-fields.js';

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
    headers: withFields(headers, { 'content-type': contentType }),
    body: statusJson(error),
    error,
  };
}
