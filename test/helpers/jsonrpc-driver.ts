/** The JSON-RPC 2.0 binding spoken in raw HTTP (spec §9). */
import {
  headersOf,
  openSse,
  rawFetch,
  readStream,
  type BindingDriver,
  type CallResult,
  type RawReply,
  type SseDecoder,
} from './driver.js';
import { MalformedReply, jsonRpcError, record, tryJson } from './wire.js';

const DEFAULT_HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' };

let nextId = 1;

/** A driver for the JSON-RPC endpoint of the server at `baseUrl`. */
export function jsonRpcDriver(baseUrl: string): BindingDriver {
  const endpoint = `${baseUrl}/a2a/jsonrpc`;
  const url = (query: Record<string, string> = {}) => {
    const search = new URLSearchParams(query).toString();
    return search === '' ? endpoint : `${endpoint}?${search}`;
  };
  const body = (method: string, params: object, id: number) =>
    JSON.stringify({ jsonrpc: '2.0', id, method, params });

  const driver: BindingDriver = {
    name: 'JSONRPC',
    endpoint,
    async call(operation, params, options = {}) {
      const id = nextId++;
      const reply = await rawFetch(url(options.query), {
        method: 'POST',
        headers: headersOf(DEFAULT_HEADERS, options.headers),
        body: body(operation, params, id),
        signal: options.signal,
      });
      return parseReply(reply, id);
    },
    async open(operation, params, options = {}) {
      const id = nextId++;
      const headers = headersOf(DEFAULT_HEADERS, options.headers);
      if (options.lastEventId !== undefined) headers.set('last-event-id', options.lastEventId);
      return openSse(
        url(options.query),
        { method: 'POST', headers, body: body(operation, params, id) },
        (reply) => parseReply(reply, id),
        decoder(id),
      );
    },
    async stream(operation, params, options = {}) {
      return readStream(await driver.open(operation, params, options), options.abortAfter);
    },
    raw(method, path, rawBody, headers) {
      return rawFetch(endpoint + path, {
        method,
        headers: headersOf(DEFAULT_HEADERS, headers),
        body: rawBody,
      });
    },
    parse: (reply, requestId) => parseReply(reply, requestId),
  };
  return driver;
}

/**
 * A JSON-RPC response: `jsonrpc: "2.0"`, the request's id (null when the server could not read
 * it), exactly one of `result` / `error`.
 */
function parseReply(reply: RawReply, requestId?: unknown): CallResult {
  const response = record(reply.json ?? tryJson(reply.text), `JSON-RPC reply (${reply.status})`);
  checkEnvelope(response, requestId);
  if ('error' in response) {
    return {
      ok: false,
      error: jsonRpcError(response.error, reply.status, response),
      headers: reply.headers,
    };
  }
  return { ok: true, result: response.result, httpStatus: reply.status, headers: reply.headers };
}

function checkEnvelope(response: Record<string, unknown>, requestId: unknown): void {
  if (response.jsonrpc !== '2.0') throw new MalformedReply('jsonrpc must be "2.0"');
  if (!('id' in response)) throw new MalformedReply('a JSON-RPC response must carry "id"');
  if ('result' in response === 'error' in response)
    throw new MalformedReply('exactly one of result and error must be present');
  // An error about an unreadable request may carry id null (JSON-RPC 2.0 §5).
  const idOk = response.id === requestId || ('error' in response && response.id === null);
  if (requestId !== undefined && !idOk)
    throw new MalformedReply(`id ${JSON.stringify(response.id)} is not the request id`);
}

/** Each SSE `data` is a complete JSON-RPC response with the request id (spec §9.4.2). */
function decoder(requestId: number): SseDecoder {
  return (message) => {
    const response = record(tryJson(message.data), 'SSE data');
    checkEnvelope(response, requestId);
    if (response.id !== requestId) throw new MalformedReply('SSE event without the request id');
    if ('error' in response) return { error: jsonRpcError(response.error, 200, response) };
    return { event: { id: message.id, event: record(response.result, 'SSE result') } };
  };
}
