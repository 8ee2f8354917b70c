/**
 * The A2A 0.3 bindings of a server with `compat: ['0.3']` (docs/interop.md), spoken through our
 * 0.3 client transports (`src/bindings/v03`): the test bodies pass and read 1.0 shapes, the
 * transport converts them to and from the 0.3 wire (no `A2A-Version`, 0.3 method names and
 * routes, `kind`s, lowercase states). So these drivers check that the version-neutral behaviour
 * holds over the 0.3 wire too; the 0.3 wire shapes themselves are checked raw by
 * test/interop/v03-*.test.ts (the real 0.3 SDK) and test/fuzz/v03.test.ts.
 *
 * The reply the transport read last is recorded (a fetch wrapper), so an error keeps its wire
 * facts: the 0.3 JSON-RPC `error.code`, or the HTTP status of 0.3 HTTP+JSON. What the 0.3 wire
 * cannot carry is refused loudly (`raw`, `parse`, query parameters, a SubscribeToTask verb), and
 * the requirements that exist in 1.0 only are listed in {@link V03_ONLY_IN_1_0}: `verifies()`
 * registers them as skipped, with the reason in the test name, never silently.
 */
import { A2AError } from '../../src/core/errors.js';
import { TransportError } from '../../src/transport/errors.js';
import { JsonRpc03Transport } from '../../src/bindings/v03/jsonrpc-client.js';
import { Rest03Transport } from '../../src/bindings/v03/rest-client.js';
import type { ClientTransport } from '../../src/transport/transport.js';
import type {
  BindingDriver,
  CallOptions,
  CallResult,
  HeaderOverrides,
  LiveStream,
  OpenResult,
  StreamEvent,
  StreamOptions,
} from './driver.js';
import { readStream } from './driver.js';
import {
  isRecord,
  tryJson,
  type BindingName,
  type StreamOperation,
  type WireError,
} from './wire.js';

/** The 0.3 HTTP bindings of the matrix (gRPC 0.3: test/helpers/v03-grpc-driver.ts). */
export type V03BindingName = 'JSONRPC 0.3' | 'HTTP+JSON 0.3';

/** True for a binding spoken in 0.3. */
export function isV03Binding(name: BindingName): name is V03BindingName | 'GRPC 0.3' {
  return name.endsWith(' 0.3');
}

const LIST_TASKS = 'ListTasks is not an A2A 0.3 operation';
const NEGOTIATION = 'version negotiation by A2A-Version (a 0.3 request has no such header)';
const EXTENSION_REQUIRED = 'ExtensionSupportRequiredError (-32008) does not exist in 0.3';
const TENANTS = 'tenants (0.3 has no tenant field or path prefix)';
const NO_CONFIG_ID =
  'a 0.3 config without an id takes the task id (as the 0.3 SDKs do), so a second one replaces the first';

/** Task generations are an A2A 1.1 draft addition: 0.3 objects have no such field. */
const GENERATIONS = 'Task.generation and ifGenerationMatch (A2A 1.1 draft) have no A2A 0.3 form';

/**
 * Requirements of test/conformance/requirements.ts that exist in A2A 1.0 only, with why: the
 * 0.3 drivers skip the tests citing them (named `… (JSONRPC 0.3) [1.0 only: <why>]`).
 */
export const V03_ONLY_IN_1_0: Readonly<Record<number, string>> = {
  30: NEGOTIATION,
  32: NEGOTIATION,
  33: NEGOTIATION,
  ...Object.fromEntries([90, 91, 92, 93, 94, 95, 96, 97, 98, 99].map((id) => [id, LIST_TASKS])),
  127: EXTENSION_REQUIRED,
  158: 'error details with @type (a 0.3 error is a bare {code, message})',
};

/**
 * Tests of version-neutral requirements written with a 1.0-only step, by title, with why: the
 * 0.3 drivers skip them the same way.
 */
export const V03_TEST_NEEDS_1_0: Readonly<Record<string, string>> = {
  'a blocking send returns the CANCELED task when canceled meanwhile': `it finds the task with ListTasks; ${LIST_TASKS}`,
  'a client-chosen contextId is kept and groups the tasks': `it lists the context's tasks; ${LIST_TASKS}`,
  'a task of another tenant looks like a missing task': TENANTS,
  "another tenant cannot see or change the task's configs": TENANTS,
  'create generates an id when empty and keeps a given one': NO_CONFIG_ID,
  'delete removes the config, and deleting it again succeeds': `it creates two configs without an id; ${NO_CONFIG_ID}`,
  'list pages through the configs with pageSize and pageToken':
    'a 0.3 list is one bare array, without paging',
  'extension URIs are case-sensitive values': EXTENSION_REQUIRED,
  'error messages say what to do': `its first step is ${NEGOTIATION}`,
  'a part of another media type gives CONTENT_TYPE_NOT_SUPPORTED':
    '0.3 text and data parts carry no media type (only file parts have a mimeType)',
  'activated: the steps are in part metadata on every read path': `one read path is ListTasks; ${LIST_TASKS}`,
  'not activated: no read path shows a step': `one read path is ListTasks; ${LIST_TASKS}`,
  'a task starts at 1 and every status or artifact update adds exactly 1': GENERATIONS,
  'a stale ifGenerationMatch gets TASK_GENERATION_MISMATCH and changes nothing; the current one is accepted':
    GENERATIONS,
  'a part must carry a content member; raw round-trips':
    'an invalid 1.0 part has no 0.3 form to send (bad 0.3 parts are fuzzed in test/fuzz/v03.test.ts)',
};

const HISTORY_ZERO =
  'historyLength 0 ("no history" in 1.0) cannot be sent: the 0.3 proto field has no presence, and 0 means unset';

/** Tests the 0.3 gRPC driver skips on top of the others: what the 0.3 proto cannot express. */
export const V03_GRPC_TEST_NEEDS_1_0: Readonly<Record<string, string>> = {
  'historyLength limits history to the most recent messages': HISTORY_ZERO,
  'historyLength in the send configuration: unset, N, 0': HISTORY_ZERO,
};

/** Why the 0.3 drivers skip the test `title` citing `ids`, or undefined when they run it. */
export function v03SkipReason(
  ids: readonly number[],
  title: string,
  binding?: BindingName,
): string | undefined {
  const grpc = binding === 'GRPC 0.3' ? V03_GRPC_TEST_NEEDS_1_0[title] : undefined;
  return grpc ?? V03_TEST_NEEDS_1_0[title] ?? ids.map((id) => V03_ONLY_IN_1_0[id]).find(Boolean);
}

/** The last reply the transport read: its status, headers and body. */
interface Seen {
  status: number;
  headers: Headers;
  body: unknown;
  /** An event stream's whole text, read beside the transport (its error frame has the code). */
  stream?: Promise<string> | undefined;
}

/** A driver for the 0.3 `binding` of the server at `baseUrl`. */
export function v03Driver(binding: V03BindingName, baseUrl: string): BindingDriver {
  const jsonRpc = binding === 'JSONRPC 0.3';
  const endpoint = jsonRpc ? `${baseUrl}/a2a/jsonrpc` : `${baseUrl}/a2a/rest`;
  let seen: Seen = { status: 0, headers: new Headers(), body: undefined };
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    seen = { status: response.status, headers: v1Headers(response.headers), body: undefined };
    if (type.includes('event-stream')) {
      seen.stream = response.clone().text();
      // Read only when the stream fails; a stream the test closes aborts it, which is no error.
      seen.stream.catch(() => undefined);
    } else seen.body = tryJson(await response.clone().text());
    return response;
  };
  const transport = (options: CallOptions): ClientTransport => {
    refuseHttpOnly(options);
    const settings = { url: endpoint, fetch: recording, headers: plainHeaders(options.headers) };
    return jsonRpc ? new JsonRpc03Transport(settings) : new Rest03Transport(settings);
  };
  const failure = async (error: unknown, signal?: AbortSignal): Promise<WireError> => {
    // A call the test aborted fails as it does on the other drivers: the promise rejects.
    if (signal?.aborted) throw error;
    return wireError(binding, error, seen.stream ? await streamError(seen.stream) : seen);
  };

  const driver: BindingDriver = {
    name: binding,
    endpoint,
    async call(operation, params, options = {}): Promise<CallResult> {
      if (operation === 'SendStreamingMessage' || operation === 'SubscribeToTask') {
        throw new Error(`${operation} is a stream: use open() or stream()`);
      }
      try {
        const result = await transport(options).call(operation, params, {
          signal: options.signal,
        });
        return { ok: true, result, httpStatus: seen.status, headers: seen.headers };
      } catch (error) {
        return { ok: false, error: await failure(error, options.signal), headers: seen.headers };
      }
    },
    open: (operation, params, options = {}) =>
      openStream(transport(options), operation, params, options, () => seen.headers, failure),
    async stream(operation, params, options = {}) {
      return readStream(await driver.open(operation, params, options), options.abortAfter);
    },
    raw() {
      throw new Error(
        `${binding} is spoken through the 0.3 client: restrict raw HTTP tests to 1.0`,
      );
    },
    parse() {
      throw new Error(`${binding} is spoken through the 0.3 client: it has no raw replies`);
    },
  };
  return driver;
}

/**
 * Opens `operation` on a 0.3 transport: the first event (or the error that stops the stream
 * before one) decides how it opened; `headers` are the reply's, read once it has come.
 */
export async function openStream(
  source: ClientTransport,
  operation: StreamOperation,
  params: object,
  options: StreamOptions,
  headers: () => Headers,
  failure: (error: unknown, signal?: AbortSignal) => Promise<WireError>,
): Promise<OpenResult> {
  const abort = new AbortController();
  const signal = options.signal ? AbortSignal.any([abort.signal, options.signal]) : abort.signal;
  const stream = source.stream(operation, params as never, {
    signal,
    ...(options.lastEventId !== undefined ? { lastEventId: options.lastEventId } : {}),
  });
  const items = stream[Symbol.asyncIterator]();
  let first: IteratorResult<{ id?: string | undefined; event: unknown }>;
  try {
    first = await items.next();
  } catch (error) {
    return { ok: false, error: await failure(error, options.signal), headers: headers() };
  }
  return { ok: true, stream: liveStream(first, items, abort, headers(), failure) };
}

/** A 0.3 transport's stream (its first item already read) as a {@link LiveStream}. */
function liveStream(
  first: IteratorResult<{ id?: string | undefined; event: unknown }>,
  items: AsyncIterator<{ id?: string | undefined; event: unknown }>,
  abort: AbortController,
  headers: Headers,
  failure: (error: unknown) => Promise<WireError>,
): LiveStream {
  let pending: IteratorResult<{ id?: string | undefined; event: unknown }> | undefined = first;
  let done = false;
  const stream: LiveStream & { error: WireError | undefined } = {
    headers,
    error: undefined,
    comments: 0,
    async next(timeoutMs = 10_000): Promise<StreamEvent | undefined> {
      if (done) return undefined;
      let item = pending;
      pending = undefined;
      if (item === undefined) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
          item = await Promise.race([
            items.next(),
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(new Error(`no event within ${timeoutMs} ms`)),
                timeoutMs,
              );
            }),
          ]);
        } catch (error) {
          done = true;
          if (error instanceof Error && error.message.startsWith('no event within')) throw error;
          stream.error = await failure(error);
          return undefined;
        } finally {
          clearTimeout(timer);
        }
      }
      if (item.done) {
        done = true;
        return undefined;
      }
      return { id: item.value.id, event: item.value.event as Record<string, unknown> };
    },
    async rest(timeoutMs?: number): Promise<StreamEvent[]> {
      const events: StreamEvent[] = [];
      for (let e = await stream.next(timeoutMs); e; e = await stream.next(timeoutMs))
        events.push(e);
      return events;
    },
    close() {
      done = true;
      abort.abort();
    },
  };
  return stream;
}

/** An error the 0.3 transport threw, with the wire facts of the reply it read. */
function wireError(binding: V03BindingName, error: unknown, seen: Seen): WireError {
  if (!(error instanceof A2AError) && !(error instanceof TransportError)) throw error;
  const body = isRecord(seen.body) ? seen.body : {};
  const wire = binding === 'JSONRPC 0.3' ? body.error : body;
  const rpcCode = isRecord(wire) && typeof wire.code === 'number' ? wire.code : undefined;
  return {
    binding,
    code: error instanceof A2AError ? error.code : `transport:${error.code}`,
    httpStatus: seen.status,
    rpcCode,
    status: undefined,
    grpcCode: undefined,
    message: error.message,
    details: [],
    raw: seen.body,
  };
}

/**
 * Header overrides as the transport's extra headers: the 1.0 `A2A-Extensions` is sent as the 0.3
 * `X-A2A-Extensions` (0.3 spec §3.2.6); a `null` removes nothing (the 0.3 transports send
 * neither `A2A-Version` nor an extensions header of their own).
 */
export function plainHeaders(overrides: HeaderOverrides = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) continue;
    out[name.toLowerCase() === 'a2a-extensions' ? 'X-A2A-Extensions' : name] = value;
  }
  return out;
}

/** Reply headers with the 0.3 `X-A2A-Extensions` also under its 1.0 name, as the tests read it. */
function v1Headers(headers: Headers): Headers {
  const out = new Headers(headers);
  const extensions = headers.get('x-a2a-extensions');
  if (extensions !== null) out.set('a2a-extensions', extensions);
  return out;
}

/** The facts of the JSON-RPC error frame that ended an event stream, if one did. */
async function streamError(text: Promise<string>): Promise<Seen> {
  const body = await Promise.race([
    text.catch(() => ''),
    new Promise<string>((resolve) => setTimeout(() => resolve(''), 2_000)),
  ]);
  const frames = body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => tryJson(line.slice(5).trim()));
  const error = frames.reverse().find((f) => isRecord(f) && f.error !== undefined);
  return { status: 200, headers: new Headers(), body: error };
}

export function refuseHttpOnly(options: CallOptions): void {
  const used = (['query', 'verb'] as const).filter((k) => options[k] !== undefined);
  if (used.length > 0) {
    throw new Error(`the 0.3 drivers take no ${used.join(', ')}: restrict this test to 1.0`);
  }
}
