/**
 * Request body access with the size limit applied (spec §13.4: limit request sizes) and UTF-8
 * enforced (spec §14.1.1, RFC 8259 §8.1: JSON text is UTF-8): bytes that are not UTF-8 are
 * refused, never decoded with U+FFFD in place of what the client sent.
 */
import { A2AError } from '../core/errors.js';
import type { HttpRequest } from './types.js';

const decoder = new TextDecoder('utf-8', { fatal: true });
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

/** The PARSE_ERROR for a body that is not UTF-8. */
export function notUtf8(): A2AError {
  return new A2AError(
    'PARSE_ERROR',
    'The request body is not valid UTF-8: send JSON encoded as UTF-8 (RFC 8259 §8.1)',
  );
}

/**
 * The body as text (`''` when absent), or throws PAYLOAD_TOO_LARGE when it is larger than
 * `maxBodyBytes` (in UTF-8 bytes) or the adapter already gave up reading it, and PARSE_ERROR
 * when its bytes are not UTF-8.
 */
export function bodyText(req: HttpRequest, maxBodyBytes: number): string {
  if (req.bodyTooLarge === true) throw payloadTooLarge(maxBodyBytes);
  const body = req.body;
  if (body === undefined) return '';
  if (typeof body !== 'string') {
    if (body.byteLength > maxBodyBytes) throw payloadTooLarge(maxBodyBytes);
    try {
      return decoder.decode(body);
    } catch {
      throw notUtf8();
    }
  }
  // UTF-8 needs at least one byte and at most three per UTF-16 unit: measure only in between.
  if (body.length > maxBodyBytes) throw payloadTooLarge(maxBodyBytes);
  if (body.length * 3 > maxBodyBytes && encoder.encode(body).byteLength > maxBodyBytes) {
    throw payloadTooLarge(maxBodyBytes);
  }
  return body;
}

/** The chunks of a body read in pieces, as one array (the chunk itself when there is one). */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
