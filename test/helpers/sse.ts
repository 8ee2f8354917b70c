/**
 * A Server-Sent Events reader written for the tests (WHATWG HTML §9.2 parsing rules), so the
 * suite checks the framing independently of src/transport/sse-parse.ts.
 */

/** One dispatched SSE event. `id` is the `id:` field of this event's own block, if any. */
export interface SseMessage {
  readonly id: string | undefined;
  readonly event: string | undefined;
  readonly data: string;
}

/** Incremental SSE parser: feed text chunks, get complete events. */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private id: string | undefined;
  private event: string | undefined;
  /** Comment lines seen (`: keep-alive`). */
  comments = 0;

  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const out: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone trailing CR may be the first half of CRLF: wait for more input.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  /** End of stream: an unterminated event block is discarded (as browsers do). */
  end(): SseMessage[] {
    this.buffer = '';
    this.data = [];
    return [];
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) {
      this.comments++;
      return undefined;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'event') this.event = value;
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    const { data, id, event } = this;
    this.data = [];
    this.id = undefined;
    this.event = undefined;
    if (data.length === 0) return undefined;
    return { id, event, data: data.join('\n') };
  }
}

/** Reads SSE events from a fetch Response body, with a per-event timeout and abort. */
export class SseReader {
  private readonly parser = new SseParser();
  private readonly queue: SseMessage[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private ended = false;

  constructor(
    body: ReadableStream<Uint8Array>,
    private readonly abort: AbortController,
  ) {
    this.reader = body.getReader();
  }

  /** Comment lines received so far. */
  get comments(): number {
    return this.parser.comments;
  }

  /** The next event, or undefined when the server closed the stream. */
  async next(timeoutMs = 5000): Promise<SseMessage | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0 && !this.ended) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no SSE event within ${timeoutMs} ms`);
      const chunk = await withTimeout(this.reader.read(), remaining);
      if (chunk === TIMEOUT) throw new Error(`no SSE event within ${timeoutMs} ms`);
      if (chunk.done) {
        this.ended = true;
        this.queue.push(...this.parser.push(this.decoder.decode()), ...this.parser.end());
      } else {
        this.queue.push(...this.parser.push(this.decoder.decode(chunk.value, { stream: true })));
      }
    }
    return this.queue.shift();
  }

  /** Drops the connection (the client goes away mid-stream). */
  close(): void {
    this.ended = true;
    this.abort.abort();
    this.reader.cancel().catch(() => undefined);
  }
}

const TIMEOUT = Symbol('timeout');

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(resolve, ms, TIMEOUT);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
