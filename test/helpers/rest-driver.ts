/** The HTTP+JSON binding spoken in raw HTTP (spec §11; routes from the proto annotations). */
import {
  headersOf,
  openSse,
  rawFetch,
  readStream,
  type BindingDriver,
  type CallOptions,
  type CallResult,
  type RawReply,
  type SseDecoder,
} from './driver.js';
import { MalformedReply, isRecord, record, restError, tryJson, type Operation } from './wire.js';

interface Route {
  readonly verb: 'GET' | 'POST' | 'DELETE';
  /** `{field}` segments are filled from the request and removed from it. */
  readonly path: string;
  /** Where the other fields go (spec §11.5: GET/DELETE use the query string). */
  readonly input: 'body' | 'query' | 'none';
}

// prettier-ignore
const ROUTES: Readonly<Record<Operation, Route>> = {
  SendMessage: { verb: 'POST', path: '/message:send', input: 'body' },
  SendStreamingMessage: { verb: 'POST', path: '/message:stream', input: 'body' },
  GetTask: { verb: 'GET', path: '/tasks/{id}', input: 'query' },
  ListTasks: { verb: 'GET', path: '/tasks', input: 'query' },
  CancelTask: { verb: 'POST', path: '/tasks/{id}:cancel', input: 'body' },
  SubscribeToTask: { verb: 'POST', path: '/tasks/{id}:subscribe', input: 'none' },
  CreateTaskPushNotificationConfig: { verb: 'POST', path: '/tasks/{taskId}/pushNotificationConfigs', input: 'body' },
  GetTaskPushNotificationConfig: { verb: 'GET', path: '/tasks/{taskId}/pushNotificationConfigs/{id}', input: 'none' },
  ListTaskPushNotificationConfigs: { verb: 'GET', path: '/tasks/{taskId}/pushNotificationConfigs', input: 'query' },
  DeleteTaskPushNotificationConfig: { verb: 'DELETE', path: '/tasks/{taskId}/pushNotificationConfigs/{id}', input: 'none' },
  GetExtendedAgentCard: { verb: 'GET', path: '/extendedAgentCard', input: 'none' },
};

const DEFAULT_HEADERS = { 'a2a-version': '1.0' };
const BODY_TYPE = 'application/a2a+json';

/** A driver for the HTTP+JSON routes of the server at `baseUrl`. */
export function restDriver(baseUrl: string): BindingDriver {
  const endpoint = `${baseUrl}/a2a/rest`;

  function request(operation: Operation, params: object, options: CallOptions) {
    const route = ROUTES[operation];
    const fields: Record<string, unknown> = { ...params };
    // The interface tenant becomes the `/{tenant}` path prefix (spec §11.3).
    const tenant = typeof fields.tenant === 'string' ? fields.tenant : undefined;
    delete fields.tenant;
    let path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const value = fields[name];
      delete fields[name];
      return encodeURIComponent(typeof value === 'string' ? value : String(value));
    });
    if (tenant !== undefined) path = `/${encodeURIComponent(tenant)}${path}`;
    const verb = operation === 'SubscribeToTask' ? (options.verb ?? 'POST') : route.verb;
    const query = new URLSearchParams(options.query);
    let body: string | undefined;
    if (route.input === 'body') body = JSON.stringify(fields);
    if (route.input === 'query')
      for (const [k, v] of Object.entries(fields)) query.set(k, scalar(k, v));
    const search = query.toString();
    const headers = headersOf(
      body === undefined ? DEFAULT_HEADERS : { ...DEFAULT_HEADERS, 'content-type': BODY_TYPE },
      options.headers,
    );
    return { url: endpoint + path + (search ? `?${search}` : ''), verb, headers, body };
  }

  const driver: BindingDriver = {
    name: 'HTTP+JSON',
    endpoint,
    async call(operation, params, options = {}) {
      const r = request(operation, params, options);
      const init = { method: r.verb, headers: r.headers, body: r.body, signal: options.signal };
      return parseReply(await rawFetch(r.url, init));
    },
    async open(operation, params, options = {}) {
      const r = request(operation, params, options);
      if (options.lastEventId !== undefined) r.headers.set('last-event-id', options.lastEventId);
      return openSse(
        r.url,
        { method: r.verb, headers: r.headers, body: r.body },
        parseReply,
        decode,
      );
    },
    async stream(operation, params, options = {}) {
      return readStream(await driver.open(operation, params, options), options.abortAfter);
    },
    raw(method, path, body, headers) {
      return rawFetch(endpoint + path, {
        method,
        headers: headersOf(DEFAULT_HEADERS, headers),
        body,
      });
    },
    parse: (reply) => parseReply(reply),
  };
  return driver;
}

/** Query values (spec §11.5): booleans lower-case, numbers decimal, no nested objects. */
function scalar(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`query parameter ${name} cannot carry ${JSON.stringify(value)}`);
}

/** 2xx: the ProtoJSON response; otherwise a google.rpc.Status body (spec §11.6). */
function parseReply(reply: RawReply): CallResult {
  if (reply.status >= 200 && reply.status < 300) {
    const result = reply.text === '' ? {} : reply.json;
    if (result === undefined) throw new MalformedReply(`2xx reply is not JSON: ${reply.text}`);
    return { ok: true, result, httpStatus: reply.status, headers: reply.headers };
  }
  return { ok: false, error: restError(reply.json, reply.status), headers: reply.headers };
}

/** SSE `data` = the bare StreamResponse; an `event: error` frame carries a Status. */
const decode: SseDecoder = (message) => {
  const data = tryJson(message.data);
  if (message.event === 'error') {
    const code = isRecord(data) && isRecord(data.error) ? data.error.code : undefined;
    return { error: restError(data, typeof code === 'number' ? code : 0) };
  }
  return { event: { id: message.id, event: record(data, 'SSE data') } };
};
