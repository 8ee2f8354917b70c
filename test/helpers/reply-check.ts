/**
 * Well-formedness of any reply, for the fuzz suite: a success of the right shape for its
 * operation, or a spec error (JSON-RPC error object with an integer code and `@type` details;
 * google.rpc.Status with a 4xx status). Throws (failing the property) otherwise.
 */
import { Agent, request } from 'node:http';
import { SseParser } from './sse.js';
import {
  WireAgentCard,
  WireListTasksResponse,
  WireSendMessageResponse,
  WireStreamResponse,
  WireTask,
  shape,
} from './shapes.js';
import {
  A2A_ERRORS,
  CANONICAL_HTTP_STATUS,
  JSONRPC_CODES,
  MalformedReply,
  isRecord,
  jsonRpcError,
  mediaType,
  record,
  restError,
  tryJson,
} from './wire.js';

/** A raw HTTP exchange that must not hang. */
export interface Exchange {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** One keep-alive connection pool: thousands of fuzz requests must not each open a socket. */
const pool = new Agent({ keepAlive: true });

/** Request options of {@link exchange}. */
export interface ExchangeInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | null;
}

/** An HTTP exchange with a deadline: a server that does not answer (or end its stream) hangs. */
export function exchange(url: string, init: ExchangeInit, timeoutMs = 5000): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const body = init.body ?? undefined;
    const headers: Record<string, string | number> = { ...init.headers };
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
    const req = request(
      url,
      { agent: pool, method: init.method, headers, signal: AbortSignal.timeout(timeoutMs) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined)
              responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const SUCCESS_ORACLES: Readonly<Record<string, Parameters<typeof shape>[0]>> = {
  SendMessage: WireSendMessageResponse,
  GetTask: WireTask,
  CancelTask: WireTask,
  ListTasks: WireListTasksResponse,
  GetExtendedAgentCard: WireAgentCard,
};
const A2A_CODES = new Set(Object.values(A2A_ERRORS).map((m) => m.jsonrpc));
const STANDARD_CODES = new Set<number>(Object.values(JSONRPC_CODES));

function fail(message: string, reply: Exchange): never {
  throw new MalformedReply(`${message}: ${reply.status} ${reply.text.slice(0, 300)}`);
}

/** Checks one JSON-RPC response object (unary or one SSE event). */
function checkJsonRpcResponse(
  value: unknown,
  method: unknown,
  id: unknown,
  reply: Exchange,
  event: boolean,
) {
  const response = record(value, 'JSON-RPC response');
  if (response.jsonrpc !== '2.0') fail('jsonrpc is not "2.0"', reply);
  if ('result' in response === 'error' in response) fail('not exactly one of result/error', reply);
  if (response.id !== id && !(response.id === null && 'error' in response)) fail('wrong id', reply);
  if ('error' in response) {
    const error = jsonRpcError(response.error, reply.status, response);
    const code = error.rpcCode ?? 0;
    if (!A2A_CODES.has(code) && !STANDARD_CODES.has(code))
      fail(`unknown error code ${code}`, reply);
    if (A2A_CODES.has(code) && error.code.startsWith('jsonrpc:'))
      fail('A2A error without ErrorInfo', reply);
    if (code === JSONRPC_CODES.INTERNAL) fail('internal error', reply);
    return;
  }
  if (event) shape(WireStreamResponse, response.result);
  else if (typeof method === 'string' && SUCCESS_ORACLES[method])
    shape(SUCCESS_ORACLES[method], response.result);
  else fail(`success for method ${String(method)}`, reply);
}

/** A reply of the JSON-RPC endpoint to a POST of `request` (which may be anything). */
export function checkJsonRpcReply(reply: Exchange, request: unknown): void {
  if (reply.status >= 500) fail('5xx', reply);
  const req = isRecord(request) ? request : {};
  const validId = typeof req.id === 'string' || typeof req.id === 'number' || req.id === null;
  const id = validId ? req.id : null;
  if (mediaType(reply.headers.get('content-type')) === 'text/event-stream') {
    const events = new SseParser().push(reply.text);
    if (events.length === 0) fail('empty stream', reply);
    for (const e of events) checkJsonRpcResponse(tryJson(e.data), req.method, id, reply, true);
    return;
  }
  // 200, or 415 for a body that is not declared as JSON (spec §9.1), with a -32600 error object.
  if (reply.status === 415) {
    const error = record(record(tryJson(reply.text), 'JSON-RPC response').error, 'error');
    if (error.code !== JSONRPC_CODES.INVALID_REQUEST) fail('415 without -32600', reply);
    return;
  }
  if (reply.status !== 200) fail('JSON-RPC reply status is not 200', reply);
  checkJsonRpcResponse(tryJson(reply.text), req.method, id, reply, false);
}

/** A reply of the HTTP+JSON binding (or any non-JSON-RPC path) to anything. */
export function checkRestReply(reply: Exchange, method: string): void {
  if (reply.status >= 500) fail('5xx', reply);
  if (method === 'HEAD') return;
  if (reply.status >= 200 && reply.status < 300) {
    if (mediaType(reply.headers.get('content-type')) === 'text/event-stream') {
      for (const e of new SseParser().push(reply.text)) {
        const data = tryJson(e.data);
        if (e.event !== 'error') shape(WireStreamResponse, data);
        else restError(data, isRecord(data) && isRecord(data.error) ? Number(data.error.code) : 0);
      }
      return;
    }
    const body = record(tryJson(reply.text), 'success body');
    if ('tasks' in body) shape(WireListTasksResponse, body);
    else if ('task' in body || 'message' in body) shape(WireSendMessageResponse, body);
    else if ('status' in body) shape(WireTask, body);
    return;
  }
  if (reply.status < 400) fail('unexpected status', reply);
  const error = restError(tryJson(reply.text), reply.status);
  const canonical = CANONICAL_HTTP_STATUS[error.status ?? ''];
  if (canonical === undefined) fail(`unknown google.rpc status ${String(error.status)}`, reply);
  if (reply.status === 405 && !reply.headers.get('allow')) fail('405 without Allow', reply);
}
