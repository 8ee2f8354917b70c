/**
 * Incremental Server-Sent Events parser (WHATWG HTML §9.2 "event stream interpretation"):
 * LF, CRLF and CR line ends (also split across chunks), comments, multi-line `data`, `event`,
 * `id`, `retry`. Lines are cut at the byte level (CR and LF never occur inside a UTF-8 sequence)
 * and decoded once complete, so the size limit counts real bytes and memory stays bounded.
 */
import { TransportError } from './errors.js';
import { chunksOf } from './stream-chunks.js';

/** One dispatched event. */
export interface SseEvent {
  /** The `id` field of this event, when it had one (see {@link parseSse}). */
  id?: string;
  /** The `event` field; absent means the default type `message`. */
  event?: string;
  /** The `data` lines joined with `\n`. */
  data: string;
}

/** Options of {@link parseSse}. */
export interface SseParseOptions {
  /** Largest event, in bytes of its lines, before the stream is rejected (default 4 MiB). */
  maxEventBytes?: number;
  /** Called with the reconnection time of a `retry` field. */
  onRetry?: (ms: number) => void;
}

/** Default maximum event size: 4 MiB (a2a-js#582: an unbounded event exhausts memory). */
export const DEFAULT_MAX_SSE_EVENT_BYTES = 4 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/**
 * Parses an SSE byte stream into events. Differences from a browser's EventSource, on purpose:
 * `id` is reported only on the event that carried it (the caller keeps the last one, which is what
 * `Last-Event-ID` needs) so that events without an id are never mistaken for repeats; the event
 * type is left undefined instead of `message`. An incomplete event at the end is discarded, as the
 * spec requires. Breaking out of the loop cancels the source.
 */
export async function* parseSse(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  options: SseParseOptions = {},
): AsyncGenerator<SseEvent> {
  const maxBytes = options.maxEventBytes ?? DEFAULT_MAX_SSE_EVENT_BYTES;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let eventBytes = 0;
  let skipLF = false;
  let first = true;
  let data: string[] = [];
  let event = '';
  let id: string | undefined;

  const tooBig = () =>
    new TransportError('BAD_RESPONSE', `SSE event larger than ${maxBytes} bytes: stream rejected`);

  /** Handles one complete line; returns an event when the line dispatches one. */
  const line = (bytes: Uint8Array): SseEvent | undefined => {
    let text = decoder.decode(bytes);
    if (first) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a leading BOM is ignored
    }
    if (text === '') {
      eventBytes = 0;
      const out = dispatch();
      data = [];
      event = '';
      id = undefined;
      return out;
    }
    if (text.charCodeAt(0) === 0x3a) return undefined; // ':' comment (keep-alives)
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'data':
        data.push(value);
        break;
      case 'event':
        event = value;
        break;
      case 'id':
        if (!value.includes('\0')) id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) options.onRetry?.(Number(value));
        break;
      default:
        break; // unknown fields are ignored
    }
    return undefined;
  };

  const dispatch = (): SseEvent | undefined => {
    if (data.length === 0) return undefined;
    const out: SseEvent = { data: data.join('\n') };
    if (event !== '') out.event = event;
    if (id !== undefined) out.id = id;
    return out;
  };

  const takeLine = (chunk: Uint8Array, start: number, end: number): Uint8Array => {
    const tail = chunk.subarray(start, end);
    if (pending.length === 0) return tail;
    pending.push(tail);
    const whole = new Uint8Array(pendingBytes + tail.length);
    let at = 0;
    for (const p of pending) {
      whole.set(p, at);
      at += p.length;
    }
    pending.length = 0;
    pendingBytes = 0;
    return whole;
  };

  for await (const chunk of chunksOf(source)) {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte !== LF && byte !== CR) continue;
      if (skipLF && byte === LF && i === start && pending.length === 0) {
        skipLF = false;
        start = i + 1;
        continue;
      }
      skipLF = byte === CR;
      const bytes = takeLine(chunk, start, i);
      start = i + 1;
      eventBytes += bytes.length;
      if (eventBytes > maxBytes) throw tooBig();
      const out = line(bytes);
      if (out) yield out;
    }
    if (start < chunk.length) {
      skipLF = false;
      const rest = chunk.subarray(start);
      // Copy: the producer may reuse its buffer once we ask for the next chunk.
      pending.push(rest.slice());
      pendingBytes += rest.length;
      if (eventBytes + pendingBytes > maxBytes) throw tooBig();
    }
  }
}
