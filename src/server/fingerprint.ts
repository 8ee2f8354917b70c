/**
 * The fingerprint of a user message: what tells a retry (the same message sent again) from
 * another message that reuses its messageId. It covers every field of the message (its parts,
 * taskId, contextId, metadata, extensions, references), in the canonical JSON form of RFC 8785,
 * so two encodings of one message (any binding, any key order) have the same fingerprint.
 *
 * It is computed for every message, so it is synchronous: the runtime's native SHA-256 where the
 * runtime offers one without an import (`process.getBuiltinModule`: Node, Bun, Deno), else a
 * pure-JS SHA-256 (@noble/hashes). WebCrypto's digest is a thread-pool job and took a fifth of an
 * echo task's CPU time on the send benchmark; the pure-JS hash costs about twice the native one.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { toBase64Url } from '../core/base64.js';
import type { Message } from '../core/schemas/index.js';
import { canonicalize } from '../security/jcs.js';

/** What this module needs of `node:crypto` (the server imports no `node:*` module). */
interface NativeCrypto {
  createHash(algorithm: 'sha256'): {
    update(text: string, encoding: 'utf8'): { digest(encoding: 'base64url'): string };
  };
  /** One-shot digest (Node ≥ 20.12): no Hash object, about a third of createHash's time. */
  hash?: (algorithm: 'sha256', text: string, encoding: 'base64url') => string;
}

const native = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as NativeCrypto | undefined;

/** URL-safe base64 of the SHA-256 of the UTF-8 text, with the runtime's native hash. */
export function nativeSha256(text: string, crypto: NativeCrypto): string {
  if (crypto.hash) return crypto.hash('sha256', text, 'base64url');
  return crypto.createHash('sha256').update(text, 'utf8').digest('base64url');
}

/** URL-safe base64 of the SHA-256 of the UTF-8 text, in pure JavaScript (any runtime). */
export function portableSha256(text: string): string {
  return toBase64Url(sha256(new TextEncoder().encode(text)));
}

/**
 * The first 22 characters (132 bits) of the URL-safe base64 SHA-256 of the canonical message.
 */
export function messageFingerprint(message: Message): string {
  let text: string;
  try {
    text = canonicalize(message);
  } catch {
    // A value RFC 8785 has no form for (a lone surrogate): the plain JSON text still tells
    // messages apart, only not across key orders.
    text = JSON.stringify(message);
  }
  return (native ? nativeSha256(text, native) : portableSha256(text)).slice(0, 22);
}
