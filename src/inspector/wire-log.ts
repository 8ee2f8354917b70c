/**
 * The inspector's wire view: a `fetch` that records every request and response its client makes
 * (headers included, secrets masked), SSE frames as they arrive, and a curl line per request.
 * gRPC calls do not go through fetch: they are recorded per call by {@link WireLog.recordCall}.
 */

/** One exchange as the wire view shows it. */
export interface WireEntry {
  readonly id: number;
  /** When the request left (ms since the epoch). */
  readonly time: number;
  readonly method: string;
  /** The URL with masked query secrets. */
  readonly url: string;
  readonly requestHeaders: Record<string, string>;
  readonly requestBody?: string | undefined;
  status?: number | undefined;
  responseHeaders?: Record<string, string> | undefined;
  responseBody?: string | undefined;
  /** SSE frames in arrival order, each with the time it arrived. */
  frames: { time: number; text: string }[];
  error?: string | undefined;
  /** Milliseconds from the request to the response headers. */
  durationMs?: number | undefined;
  /** A curl command line repeating the request (secrets masked). */
  readonly curl: string;
  /** `fetch` for HTTP bindings, `grpc` for calls recorded per operation. */
  readonly via: 'fetch' | 'grpc';
}

/** What a masked secret reads as. */
export const MASK = '•••';
const ALWAYS_SECRET = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-a2a-notification-token',
];
const KEEP = 500;
const MAX_BODY = 64 * 1024;

/** Records exchanges; `secretHeaders`/`secretQuery` name the API keys of the current agent. */
export class WireLog {
  private readonly entries: WireEntry[] = [];
  private next = 1;
  secretHeaders = new Set<string>();
  secretQuery = new Set<string>();
  /** curl options of HTTPS calls (the client certificate files of mutual TLS). */
  curlOptions: readonly string[] = [];

  /** Entries with an id above `after`, oldest first (the last {@link KEEP} are kept). */
  since(after = 0): WireEntry[] {
    return this.entries.filter((e) => e.id > after);
  }

  clear(): void {
    this.entries.length = 0;
  }

  /** A fetch that records what it sends and receives, then behaves as `inner`. */
  fetch(inner: typeof fetch = globalThis.fetch): typeof fetch {
    return async (input, init) => {
      const isRequest = input instanceof Request;
      const method = init?.method ?? (isRequest ? input.method : 'GET');
      const rawUrl = typeof input === 'string' ? input : isRequest ? input.url : input.href;
      const sent = new Headers(init?.headers ?? (isRequest ? input.headers : undefined));
      const body =
        init?.body === undefined || init.body === null ? undefined : maskBody(bodyText(init.body));
      const headers = this.mask(headerRecord(sent));
      const url = this.maskUrl(rawUrl);
      const entry = this.add({
        method,
        url,
        requestHeaders: headers,
        requestBody: body,
        curl: curlOf(method, url, headers, body, url.startsWith('https:') ? this.curlOptions : []),
        via: 'fetch',
      });
      const started = Date.now();
      let response: Response;
      try {
        response = await inner(input, init);
      } catch (error) {
        entry.error = error instanceof Error ? error.message : String(error);
        throw error;
      }
      entry.durationMs = Date.now() - started;
      entry.status = response.status;
      entry.responseHeaders = this.mask(headerRecord(response.headers));
      const type = response.headers.get('content-type') ?? '';
      if (response.body === null) return response;
      if (type.includes('text/event-stream')) return this.tapFrames(response, entry);
      const text = await response.text();
      entry.responseBody = maskBody(text.slice(0, MAX_BODY));
      return new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  }

  /**
   * Records one call made without fetch (gRPC): the request, then its result or error. `tls`:
   * the grpcurl options of a call over TLS (client certificate files), undefined for plaintext.
   */
  recordCall(
    binding: string,
    url: string,
    operation: string,
    request: unknown,
    tls?: readonly string[],
  ): WireEntry {
    const body = maskBody(JSON.stringify(request)) ?? '';
    const security =
      tls === undefined ? ['-plaintext'] : tls.map((o) => (o.startsWith('-') ? o : shellQuote(o)));
    const target = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/, '');
    return this.add({
      method: 'GRPC',
      url: `${binding} ${url} ${operation}`,
      requestHeaders: {},
      requestBody: body,
      curl: [
        'grpcurl',
        ...security,
        '-d',
        shellQuote(body),
        target,
        `lf.a2a.v1.A2AService/${operation}`,
      ].join(' '),
      via: 'grpc',
    });
  }

  private add(fields: Omit<WireEntry, 'id' | 'time' | 'frames'>): WireEntry {
    const entry: WireEntry = { ...fields, id: this.next++, time: Date.now(), frames: [] };
    this.entries.push(entry);
    if (this.entries.length > KEEP) this.entries.shift();
    return entry;
  }

  /** Passes the stream on unchanged while recording each SSE frame as it arrives. */
  private tapFrames(response: Response, entry: WireEntry): Response {
    const decoder = new TextDecoder();
    let pending = '';
    const tap = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        const frames = pending.split(/\r?\n\r?\n/);
        pending = frames.pop() ?? '';
        for (const text of frames) {
          if (entry.frames.length < 20_000) {
            entry.frames.push({ time: Date.now(), text: maskBody(text) ?? '' });
          }
        }
        controller.enqueue(chunk);
      },
    });
    return new Response((response.body as ReadableStream<Uint8Array>).pipeThrough(tap), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /** Header values masked where they carry a secret. */
  mask(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      const secret = ALWAYS_SECRET.includes(lower) || this.secretHeaders.has(lower);
      out[name] = secret ? maskValue(lower, value) : value;
    }
    return out;
  }

  private maskUrl(raw: string): string {
    if (this.secretQuery.size === 0) return raw;
    const url = new URL(raw);
    for (const name of this.secretQuery)
      if (url.searchParams.has(name)) url.searchParams.set(name, MASK);
    return url.href;
  }
}

/**
 * JSON and form bodies with their secrets masked: OAuth 2 token responses (RFC 6749 §5.1),
 * client secrets, the `token` of push configs and AuthenticationInfo `credentials`.
 */
export function maskBody(body: string | undefined): string | undefined {
  return body
    ?.replace(
      /("(?:access_token|refresh_token|id_token|client_secret|token|credentials)"\s*:\s*)"(?:[^"\\]|\\.)*"/g,
      `$1"${MASK}"`,
    )
    .replace(/\b(client_secret|client_assertion|password)=[^&]*/g, `$1=${MASK}`);
}

/** Keeps the scheme word of an Authorization header visible (`Bearer •••`). */
function maskValue(name: string, value: string): string {
  if (name === 'authorization' || name === 'proxy-authorization') {
    const space = value.indexOf(' ');
    return space > 0 ? `${value.slice(0, space)} ${MASK}` : MASK;
  }
  return MASK;
}

function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}

function bodyText(body: BodyInit): string | undefined {
  if (typeof body === 'string') return body.slice(0, MAX_BODY);
  if (body instanceof Uint8Array) {
    // Narrowed by hand: under some lib sets `instanceof` leaves Blob in the union.
    const bytes: Uint8Array = body as Uint8Array;
    return new TextDecoder().decode(bytes.subarray(0, MAX_BODY));
  }
  if (body instanceof URLSearchParams) return body.toString();
  return '(stream body)';
}

/** `s` quoted for a POSIX shell. */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

/** A curl command line for one request, quoted for a POSIX shell. */
export function curlOf(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  options: readonly string[] = [],
): string {
  const quote = shellQuote;
  const parts = [
    'curl',
    '-sS',
    ...options.map((o) => (o.startsWith('--') ? o : quote(o))),
    ...(method === 'GET' ? [] : ['-X', method]),
    quote(url),
  ];
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'content-length' || name === 'host') continue;
    parts.push('-H', quote(`${name}: ${value}`));
  }
  if (body !== undefined) parts.push('--data-binary', quote(body));
  return parts.join(' ');
}
