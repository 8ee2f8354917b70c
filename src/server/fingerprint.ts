/**
 * The fingerprint of a user message: what tells a retry (the same message sent again) from
 * another message that reuses its messageId. It covers every field of the message (its parts,
 * taskId, contextId, metadata, extensions, references), in the canonical JSON form of RFC 8785,
 * so two encodings of one message (any binding, any key order) have the same fingerprint.
 *
 * It is computed for every message, so it is synchronous (security/sha256.ts), and the canonical
 * form is written by the audit chain's writer for A2A shapes (security/audit-canonical.ts).
 */
import type { Message } from '../core/schemas/index.js';
import { canonicalMessage } from '../security/audit-canonical.js';
import { sha256Base64Url } from '../security/sha256.js';

export { nativeSha256, portableSha256 } from '../security/sha256.js';

/**
 * The first 22 characters (132 bits) of the URL-safe base64 SHA-256 of the canonical message.
 */
export function messageFingerprint(message: Message): string {
  let text: string;
  try {
    text = canonicalMessage(message);
  } catch {
    // A value RFC 8785 has no form for (a lone surrogate): the plain JSON text still tells
    // messages apart, only not across key orders.
    text = JSON.stringify(message);
  }
  return sha256Base64Url(text).slice(0, 22);
}
