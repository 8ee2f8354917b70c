/**
 * `Content-Digest` (RFC 9530 §2): `sha-256=:<base64>:` of the exact body bytes. A request with a
 * body is signed over this header, so a body changed after signing is detected.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The `Content-Digest` value of `body` (sha-256). */
export function contentDigest(body: Uint8Array | string): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

/**
 * True when `header` holds a sha-256 digest equal to that of `body`. Other algorithms in the
 * header are ignored (RFC 9530 §2 lets a recipient pick); a header without sha-256 is false.
 */
export function contentDigestMatches(header: string, body: Uint8Array | string): boolean {
  const expected = createHash('sha256').update(body).digest();
  for (const member of header.split(',')) {
    const match = /^\s*sha-256\s*=\s*:([A-Za-z0-9+/]*={0,2}):\s*$/.exec(member);
    if (!match) continue;
    const given = Buffer.from(match[1] ?? '', 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
  return false;
}
