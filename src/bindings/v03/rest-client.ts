/**
 * Client of a 0.3 agent's HTTP+JSON interface (0.3 spec §3.2.3): the routes under `/v1`,
 * proto-JSON of `a2a.v1` bodies (`content`, `TASK_STATE_CANCELLED`, `{task}|{message}`), errors
 * as a bare `{code, message}` object (or, from some servers, a google.rpc.Status), streams as SSE
 * of proto-JSON StreamResponses with `event: error` for late failures; no `A2A-Version` header.
 * The caller sends and receives 1.0 shapes. ListTasks has no 0.3 route: UNSUPPORTED_OPERATION
 * before anything is sent.
 */
import { A2AError, CODE_BY_HTTP } from '../../core/errors.js';
import { OPERATIONS, type OperationName } from '../../core/operations.js';
import type { StreamResponse } from '../../core/schemas/index.js';
import { TransportError } from '../../transport/errors.js';
import type { ReplyHead } from '../../transport/http-send.js';
import {
  badStatus,
  checkResult,
  isJsonType,
  parseJsonBody,
  snippet,
  tryJson,
} from '../../transport/http-exchange.js';
import {
  HttpTransport,
  type WireEvent,
  type WireReply,
  type WireRequest,
} from '../../transport/http-transport.js';
import type { TransportOptions } from '../../transport/transport.js';
import { errorFromStatus } from '../rest/client.js';
import { eventFrom03, isObject, taskFrom03, type Json } from './convert.js';
import { createConfigTo03, namedConfigFrom03, sendParamsTo03 } from './requests.js';
import { CODE_BY_V03_JSONRPC, V03_VERSION } from './wire.js';

const JSON_TYPE = 'application/json';
const seg = (v: unknown) => encodeURIComponent(String(v));

/** Client of a 0.3 HTTP+JSON interface; the API is the 1.0 one. */
export class Rest03Transport extends HttpTransport {
  readonly binding = 'HTTP+JSON';
  /** The protocol version this transport speaks. */
  readonly protocolVersion = V03_VERSION;
  readonly url: string;

  constructor(options: TransportOptions) {
    super(options);
    this.url = options.url.replace(/\/+$/, '');
  }

  protected prepare(operation: OperationName, request: object, streaming: boolean) {
    const r = request as Json;
    const base = `${this.url}/v1`;
    const task = `${base}/tasks/${seg(r.taskId ?? r.id)}`;
    let method: WireRequest<undefined>['method'] = 'GET';
    let url: string;
    let body: Json | undefined;
    switch (operation) {
      case 'SendMessage':
      case 'SendStreamingMessage':
        method = 'POST';
        url = `${base}/message:${operation === 'SendMessage' ? 'send' : 'stream'}`;
        body = sendParamsTo03(r, 'proto');
        break;
      case 'GetTask':
        url =
          r.historyLength === undefined ? task : `${task}?historyLength=${seg(r.historyLength)}`;
        break;
      case 'CancelTask':
        method = 'POST';
        url = `${task}:cancel`;
        body = {};
        break;
      case 'SubscribeToTask':
        url = `${task}:subscribe`;
        break;
      case 'CreateTaskPushNotificationConfig':
        method = 'POST';
        url = `${task}/pushNotificationConfigs`;
        body = createConfigTo03(r);
        break;
      case 'GetTaskPushNotificationConfig':
        url = `${task}/pushNotificationConfigs/${seg(r.id)}`;
        break;
      case 'DeleteTaskPushNotificationConfig':
        method = 'DELETE';
        url = `${task}/pushNotificationConfigs/${seg(r.id)}`;
        break;
      case 'ListTaskPushNotificationConfigs':
        url = `${task}/pushNotificationConfigs`;
        break;
      case 'GetExtendedAgentCard':
        url = `${base}/card`;
        break;
      case 'ListTasks':
        throw new A2AError(
          'UNSUPPORTED_OPERATION',
          `${operation} does not exist in A2A 0.3; this agent's interface speaks 0.3`,
        );
    }
    const text = body === undefined ? undefined : JSON.stringify(body);
    const wire: WireRequest<undefined> = {
      url,
      method,
      accept: streaming ? 'text/event-stream' : JSON_TYPE,
      contentType: text === undefined ? undefined : JSON_TYPE,
      body: text,
      context: undefined,
      noVersion: true,
    };
    return wire;
  }

  protected result({ operation, response, url, type, text }: WireReply<undefined>): unknown {
    if (!response.ok) throw failure03(response, url, type, text);
    if (operation === 'DeleteTaskPushNotificationConfig' && text.trim() === '') return {};
    if (!isJsonType(type)) {
      throw new TransportError(
        'BAD_RESPONSE',
        `${operation}: expected JSON from ${url}, got ${type || 'no content type'}: ${snippet(text)}`,
        { url, status: response.status },
      );
    }
    const body = parseJsonBody(text, `${operation} reply`, url, response.status);
    return checkResult(
      OPERATIONS[operation].result,
      resultFrom03(operation, body),
      `${operation} result`,
      url,
    );
  }

  protected refusal({ operation, response, url, type, text }: WireReply<undefined>): Error {
    if (!response.ok) return failure03(response, url, type, text);
    return new TransportError(
      'BAD_RESPONSE',
      `${operation}: expected text/event-stream from ${url}, got ${type || 'no content type'}: ${snippet(text)}`,
      { url, status: response.status },
    );
  }

  protected event({ operation, sse, url }: WireEvent<undefined>): StreamResponse {
    const body = parseJsonBody(sse.data, `${operation} event`, url);
    if (sse.event === 'error') {
      throw (
        error03(body, 500) ??
        new TransportError('BAD_RESPONSE', `${operation}: unreadable error event from ${url}`, {
          url,
        })
      );
    }
    return checkResult(
      OPERATIONS[operation].result,
      eventFrom03(body),
      `${operation} event`,
      url,
    ) as StreamResponse;
  }
}

/** The 1.0 form of a 0.3 REST result. */
function resultFrom03(operation: OperationName, body: unknown): unknown {
  const value = isObject(body) ? body : {};
  switch (operation) {
    case 'SendMessage':
      return eventFrom03(value);
    case 'GetTask':
    case 'CancelTask':
      return taskFrom03(value);
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      return namedConfigFrom03(value);
    case 'ListTaskPushNotificationConfigs':
      return {
        configs: (Array.isArray(value.configs) ? value.configs : []).map(namedConfigFrom03),
      };
    case 'DeleteTaskPushNotificationConfig':
      return {};
    case 'GetExtendedAgentCard':
    case 'SendStreamingMessage':
    case 'SubscribeToTask':
    case 'ListTasks':
      return body;
  }
}

/** The A2A error of a 0.3 error body: `{code, message}` with a JSON-RPC code, or a Status. */
function error03(body: unknown, httpStatus: number): A2AError | undefined {
  if (!isObject(body)) return undefined;
  const inner = isObject(body.error) ? body.error : body;
  const code = typeof inner.code === 'number' ? CODE_BY_V03_JSONRPC.get(inner.code) : undefined;
  const message = typeof inner.message === 'string' && inner.message ? inner.message : undefined;
  if (code !== undefined) return new A2AError(code, message);
  const fromStatus = errorFromStatus(body, httpStatus);
  if (fromStatus !== undefined) return fromStatus;
  const byHttp = CODE_BY_HTTP.get(httpStatus);
  return byHttp === undefined || message === undefined ? undefined : new A2AError(byHttp, message);
}

function failure03(response: ReplyHead, url: string, type: string, text: string): Error {
  const body = isJsonType(type) || type === '' ? tryJson(text) : undefined;
  return error03(body, response.status) ?? badStatus(response, url, text);
}
