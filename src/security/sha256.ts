/**
 * Synchronous SHA-256 of a text, URL-safe base64: the runtime's native hash where the runtime
 * offers one without an import (`process.getBuiltinModule`: Node, Bun, Deno), else a pure-JS
 * SHA-256 (@noble/hashes). WebCrypto's digest is a thread-pool job and took a fifth of an echo
 * task's CPU time on the send benchmark; the pure-JS hash costs about twice the native one. Used
 * by the message fingerprint (server/fingerprint.ts) and the audit chain (security/audit-chain.ts).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { toBase64Url } from '../core/base64.js';

/** What this module needs of `node:crypto` (the server imports no `node:*` module). */
export interface NativeCrypto {
  createHash(algorithm: 'sha256'): {
    update(text: string, encoding: 'utf8'): { digest(encoding: 'base64url'): string };
  };
  /** The one-shot hash (Node 20.12+, 21.7+): half the cost of createHash on short texts. */
  hash?(algorithm: 'sha256', text: string, encoding: 'base64url'): string;
}

const native = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as NativeCrypto | undefined;

/** URL-safe base64 of the SHA-256 of the UTF-8 text, with the runtime's native hash. */
export function nativeSha256(text: string, crypto: NativeCrypto): string {
  return crypto.hash
    ? crypto.hash('sha256', text, 'base64url')
    : crypto.createHash('sha256').update(text, 'utf8').digest('base64url');
}

/** URL-safe base64 of the SHA-256 of the UTF-8 text, in pure JavaScript (any runtime). */
export function portableSha256(text: string): string {
  return toBase64Url(sha256(new TextEncoder().encode(text)));
}

/** URL-safe base64 (43 characters) of the SHA-256 of the UTF-8 text, native when possible. */
export function sha256Base64Url(text: string): string {
  return native ? nativeSha256(text, native) : portableSha256(text);
}
