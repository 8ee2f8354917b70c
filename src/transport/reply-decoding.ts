/**
 * The content codings of a reply that came straight from the dispatcher (http-send.ts), decoded
 * as fetch decodes them: `Content-Encoding` lists the codings in the order the server applied
 * them (RFC 9110 §8.4), so they are undone last to first; `gzip` (and its old name `x-gzip`),
 * `deflate` (the zlib format, RFC 9110 §8.4.1.2: a bare deflate stream under that name, which
 * Node's fetch also takes, fails here as a corrupt body) and `br`, with the flush mode that hands
 * on what a stream has so far; a reply with any other coding is handed on as it came, as fetch
 * hands it on. Uses `node:zlib` and `node:stream` where the runtime offers them without an import
 * (`process.getBuiltinModule`): the direct path exists only where undici's global dispatcher
 * does, and without them http-send.ts keeps to fetch.
 */

/** What this module uses of `node:zlib`. */
interface Zlib {
  createGunzip(options: { flush: number; finishFlush: number }): unknown;
  createInflate(options: { flush: number; finishFlush: number }): unknown;
  createBrotliDecompress(options: { flush: number; finishFlush: number }): unknown;
  constants: { Z_SYNC_FLUSH: number; BROTLI_OPERATION_FLUSH: number };
}

/** What this module uses of `node:stream`: `pipeline(source, ...transforms, done)`. */
interface Streams {
  pipeline(...streams: unknown[]): AsyncIterable<Uint8Array> & { destroy(error?: Error): void };
}

const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  ?.getBuiltinModule;
const zlib = builtin?.('node:zlib') as Zlib | undefined;
const streams = builtin?.('node:stream') as Streams | undefined;

/** True where replies can be decoded here (else the caller sends through fetch). */
export const canDecode = zlib !== undefined && streams !== undefined;

/**
 * What fetch asks for, by scheme (it adds this `Accept-Encoding` when a request has none):
 * brotli only over TLS, where no proxy on the way can mangle it.
 */
export function acceptEncoding(origin: string): string {
  return origin.startsWith('https:') ? 'br, gzip, deflate' : 'gzip, deflate';
}

/** The decoders of `Content-Encoding` value `value`, first to run first; none: hand on as is. */
function decoders(value: string | string[] | undefined): unknown[] {
  if (value === undefined || zlib === undefined) return [];
  const codings = (Array.isArray(value) ? value.join(',') : value)
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity');
  const { Z_SYNC_FLUSH, BROTLI_OPERATION_FLUSH } = zlib.constants;
  const z = { flush: Z_SYNC_FLUSH, finishFlush: Z_SYNC_FLUSH };
  const out: unknown[] = [];
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i];
    if (coding === 'gzip' || coding === 'x-gzip') out.push(zlib.createGunzip(z));
    else if (coding === 'deflate') out.push(zlib.createInflate(z));
    else if (coding === 'br') {
      const flush = BROTLI_OPERATION_FLUSH;
      out.push(zlib.createBrotliDecompress({ flush, finishFlush: flush }));
    } else return []; // a coding fetch does not know: the body as it came
  }
  return out;
}

/** A body as undici hands it out (a Node Readable). */
export interface EncodedBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): void;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/**
 * `body` decoded by the codings of `contentEncoding`, or undefined when it needs no decoding (or
 * has a coding fetch would not decode either). A failure of the body or of a decoder ends the
 * decoded stream with that error.
 */
export function decoded(
  body: EncodedBody,
  contentEncoding: string | string[] | undefined,
): (AsyncIterable<Uint8Array> & { destroy(error?: Error): void }) | undefined {
  const chain = decoders(contentEncoding);
  if (chain.length === 0 || streams === undefined) return undefined;
  // The last stream carries the first error of any stage; the callback only keeps it handled.
  return streams.pipeline(body, ...chain, () => undefined);
}
