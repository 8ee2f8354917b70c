/**
 * How 0.3 callers see errors (0.3 spec §8): a JSON-RPC error object `{code, message}` with the
 * 0.3 codes (`wire.ts`), and for HTTP+JSON the same bare object as the body with the HTTP status
 * of the catalog (what the 0.3 SDKs send). The 1.0 `@type` detail arrays are not sent: 0.3
 * leaves `data` free-form, and a 0.3 client would show them as noise.
 */
import type { A2AError } from '../../core/errors.js';
import { ERROR_CATALOG } from '../../core/errors.js';
import { V03_JSONRPC_CODES } from './wire.js';

/** The 0.3 error object of `error`. */
export function errorObject03(error: A2AError): { code: number; message: string } {
  return { code: V03_JSONRPC_CODES[error.code], message: error.message };
}

/** A 0.3 JSON-RPC error response. */
export function errorJson03(idJson: string, error: A2AError): string {
  return `{"jsonrpc":"2.0","id":${idJson},"error":${JSON.stringify(errorObject03(error))}}`;
}

/** The HTTP status a 0.3 HTTP+JSON caller gets for `error` (the catalog's, spec §11.6). */
export function httpStatus03(error: A2AError): number {
  return ERROR_CATALOG[error.code].http;
}

/** The extension URIs of the 0.3 `X-A2A-Extensions` header (0.3 spec §3.2.6), if any. */
export function requestedExtensions03(header: string | null): string[] | undefined {
  if (header === null) return undefined;
  const uris = [...new Set(header.split(',').map((u) => u.trim()))].filter((u) => u !== '');
  return uris.length > 0 ? uris : undefined;
}

/** Adds the 0.3 `X-A2A-Extensions` response header when extensions were activated. */
export function addExtensionsHeader03(
  headers: Record<string, string>,
  activated: readonly string[] | undefined,
): Record<string, string> {
  if (activated !== undefined && activated.length > 0) {
    headers['x-a2a-extensions'] = activated.join(', ');
  }
  return headers;
}
