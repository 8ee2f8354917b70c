/** The runtime-neutral base64 helpers against Node's own encoder (RFC 4648 §4 and §5). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64UrlOfText, fromBase64, toBase64, toBase64Url } from './base64.js';

describe('base64', () => {
  it('toBase64Url is RFC 4648 §5 without padding, for every length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      }),
    );
  });

  it('toBase64 and fromBase64 round-trip, and fromBase64 reads the URL-safe form too', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
        expect([...fromBase64(toBase64Url(bytes))]).toEqual([...bytes]);
      }),
    );
  });

  it('base64UrlOfText encodes the UTF-8 bytes', () => {
    expect(base64UrlOfText('é?>')).toBe(Buffer.from('é?>').toString('base64url'));
  });
});
