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

/** How {@link limitedText} reads a body: all at once, or chunk by chunk; `stop` releases it. */
export interface BodyRead {
  whole(): Promise<string>;
  chunks(): AsyncIterable<Uint8Array>;
  stop(): void;
}

/**
 * The body as text within `maxBytes`: read whole when the reply declares a length within the
 * bound, refused at once when it declares one past it, else read chunk by chunk and counted
 * ({@link boundedText}). A declared length counts only for a body sent as it is: a content
 * coding's decoded length no header gives.
 */
export function limitedText(
  headers: { get(name: string): string | null },
  maxBytes: number,
  url: string,
  read: BodyRead,
): Promise<string> {
  const length = headers.get('content-length');
  const coding = headers.get('content-encoding')?.trim().toLowerCase();
  if (length === null || !/^\d+$/.test(length) || (coding !== undefined && coding !== 'identity')) {
    return boundedText(read.chunks(), maxBytes, url, () => read.stop());
  }
  if (Number(length) <= maxBytes) return read.whole();
  read.stop();
  return Promise.reject(tooLarge(url, maxBytes));
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
