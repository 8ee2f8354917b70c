/**
 * The bound on a unary reply's body (ClientOptions.maxReplyBytes), as sse-parse.ts bounds each
 * event of a stream: an agent that answers with more than the client takes (a huge body, or a
 * small compressed one that inflates to gigabytes) is refused with a BAD_RESPONSE TransportError
 * once the bytes read pass the bound, before they are all held. Counted after decoding, so what
 * is bounded is what the client would parse. Runtime-neutral.
 */
import { TransportError } from './errors.js';

/** Default largest unary reply body, in bytes: 64 MiB. */
export const DEFAULT_MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** The error of a reply over the bound. */
export function tooLarge(url: string, maxBytes: number): TransportError {
  return new TransportError(
    'BAD_RESPONSE',
    `the reply from ${url} is larger than ${maxBytes} bytes: refused (the client's maxReplyBytes sets the bound)`,
    { url },
  );
}

/**
 * The body length a reply declares, when it declares one in `Content-Length` and sends its body
 * as it is (no content coding, whose decoded length no header gives).
 */
export function declaredLength(
  contentLength: string | null | undefined,
  contentEncoding: string | null | undefined,
): number | undefined {
  if (contentLength == null || !/^\d+$/.test(contentLength)) return undefined;
  if (contentEncoding != null && contentEncoding.trim().toLowerCase() !== 'identity') {
    return undefined;
  }
  return Number(contentLength);
}

/**
 * The UTF-8 text of `chunks` (a BOM dropped, bad bytes replaced, as fetch's `text()`), refused
 * with {@link tooLarge} as soon as more than `maxBytes` came; `stop` then releases the body.
 */
export async function boundedText(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  url: string,
  stop: () => void,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) {
      stop();
      throw tooLarge(url, maxBytes);
    }
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
