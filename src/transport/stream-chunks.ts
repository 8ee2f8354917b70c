/**
 * The chunks of a web stream or an async iterable as one async iterable: what the SSE parser
 * (sse-parse.ts) and the bounded read of a fetch reply (http-send.ts) read. Runtime-neutral.
 */

/** The chunks of a web stream or an async iterable; stopping early cancels the web stream. */
export async function* chunksOf(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  if (!(source instanceof ReadableStream)) {
    yield* source;
    return;
  }
  const reader = source.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // a2a-js#580: a stream abandoned by the consumer must be cancelled, not left open.
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
