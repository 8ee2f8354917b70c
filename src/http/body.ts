/** Request body access with the size limit applied (spec §13.4: limit request sizes). */
import { A2AError } from '../core/errors.js';
import type { HttpRequest } from './types.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The PAYLOAD_TOO_LARGE error for a limit of `maxBodyBytes`. */
export function payloadTooLarge(maxBodyBytes: number): A2AError {
  return new A2AError(
    'PAYLOAD_TOO_LARGE',
    `Request body exceeds the limit of ${maxBodyBytes} bytes`,
    {
      metadata: { maxBodyBytes: String(maxBodyBytes) },
    },
  );
}

/**
 * The body as text (`''` when absent), or throws PAYLOAD_TOO_LARGE when it is larger than
 * `maxBodyBytes` (in UTF-8 bytes) or the adapter already gave up reading it.
 */
export function bodyText(req: HttpRequest, maxBodyBytes: number): string {
  if (req.bodyTooLarge === true) throw payloadTooLarge(maxBodyBytes);
  const body = req.body;
  if (body === undefined) return '';
  if (typeof body !== 'string') {
    if (body.byteLength > maxBodyBytes) throw payloadTooLarge(maxBodyBytes);
    return decoder.decode(body);
  }
  // UTF-8 needs at least one byte and at most three per UTF-16 unit: measure only in between.
  if (body.length > maxBodyBytes) throw payloadTooLarge(maxBodyBytes);
  if (body.length * 3 > maxBodyBytes && encoder.encode(body).byteLength > maxBodyBytes) {
    throw payloadTooLarge(maxBodyBytes);
  }
  return body;
}
