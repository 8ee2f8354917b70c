/** Runtime-neutral base64 helpers (no Buffer: the core runs on any JavaScript runtime). */

/** Standard base64 (with padding) of bytes. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Bytes of a standard or URL-safe base64 string; throws on malformed input. */
export function fromBase64(text: string): Uint8Array {
  const normalized = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(normalized + '='.repeat((4 - (normalized.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** URL-safe base64 without padding (RFC 4648 §5) of bytes. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out +=
      URL_ALPHABET[n >>> 18]! +
      URL_ALPHABET[(n >>> 12) & 63]! +
      URL_ALPHABET[(n >>> 6) & 63]! +
      URL_ALPHABET[n & 63]!;
  }
  const left = bytes.length - i;
  if (left > 0) {
    const n = (bytes[i]! << 16) | (left === 2 ? bytes[i + 1]! << 8 : 0);
    out += URL_ALPHABET[n >>> 18]! + URL_ALPHABET[(n >>> 12) & 63]!;
    if (left === 2) out += URL_ALPHABET[(n >>> 6) & 63]!;
  }
  return out;
}

/** URL-safe base64 without padding of a UTF-8 string. */
export function base64UrlOfText(text: string): string {
  return toBase64Url(new TextEncoder().encode(text));
}

/** The UTF-8 string of URL-safe (or standard) base64; throws on malformed input. */
export function textOfBase64Url(encoded: string): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(fromBase64(encoded));
}
