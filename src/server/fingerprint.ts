/**
 * The fingerprint of a user message: what tells a retry (the same message sent again) from
 * another message that reuses its messageId. It covers every field of the message (its parts,
 * taskId, contextId, metadata, extensions, references), in the canonical JSON form of RFC 8785,
 * so two encodings of one message (any binding, any key order) have the same fingerprint.
 */
import { toBase64 } from '../core/base64.js';
import type { Message } from '../core/schemas/index.js';
import { canonicalize } from '../security/jcs.js';

/** 128 bits of SHA-256 over the canonical message, URL-safe base64 (22 characters). */
export async function messageFingerprint(message: Message): Promise<string> {
  let text: string;
  try {
    text = canonicalize(message);
  } catch {
    // A value RFC 8785 has no form for (a lone surrogate): the plain JSON text still tells
    // messages apart, only not across key orders.
    text = JSON.stringify(message);
  }
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return toBase64(new Uint8Array(digest, 0, 16))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
