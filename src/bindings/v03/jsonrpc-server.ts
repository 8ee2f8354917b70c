/**
 * Server side of the 0.3 JSON-RPC binding (0.3 spec §7, §3.2.1): slash method names
 * (`message/send`, …), params and results in the 0.3 JSON Schema shape (`kind`, lowercase
 * states), converted to 1.0 at the edge and validated with the 1.0 schemas, so every call runs on
 * the one task model. Streams are SSE whose `data` is a JSON-RPC response with the bare 0.3 event;
 * a stream that cannot start is answered as an SSE stream with one error frame, which is what 0.3
 * clients read (they require `text/event-stream`). ListTasks is not a 0.3 method: `tasks/list`
 * answers -32601 like any unknown method.
 */
import { A2AError, toA2AError } from '../../core/errors.js';
import { isOperationName, OPERATIONS, type OperationName } from '../../core/operations.js';
import { parseParams } from '../../core/validate.js';
import type { BindingContext } from '../../http/binding.js';
import { bodyText } from '../../http/body.js';
import { isJsonMediaType, unsupportedMediaType } from '../../http/media-type.js';
import { withLastEventId } from '../../http/service-params.js';
import { SSE_HEADERS, encodeSse, sseFrame } from '../../http/sse-encode.js';
import type { HttpRequest, HttpResponse } from '../../http/types.js';
import { checkRequest, handleJsonRpc, parseRequest, resultText } from '../jsonrpc/server.js';
import { isObject } from './convert.js';
import {
  addExtensionsHeader03,
  errorJson03,
  httpStatus03,
  requestedExtensions03,
} from './errors.js';
import { eventText03, jsonRpcResultText03 } from './text.js';
import { jsonRpcParamsFrom03 } from './requests.js';
import { V03_OPERATIONS, V03_VERSION } from './wire.js';
import { withFields } from '../../core/with-fields.js';

const CONTENT_TYPE = 'application/json';

/** Answers one 0.3 JSON-RPC POST. Never throws. */
export async function handleJsonRpc03(
  req: HttpRequest,
  ctx: BindingContext,
): Promise<HttpResponse> {
  let idJson = 'null';
  let streaming = false;
  try {
    const contentType = req.headers.get('content-type');
    if (contentType === null || !isJsonMediaType(contentType)) {
      throw unsupportedMediaType(contentType, CONTENT_TYPE);
    }
    const request = parseRequest(bodyText(req, ctx.maxBodyBytes));
    idJson = JSON.stringify(request.id);
    const { method, params: rawParams } = checkRequest(request);
    // A 1.0 method name goes to the 1.0 endpoint, which answers the version error (spec §3.6.2).
    if (isOperationName(method)) return await handleJsonRpc(req, ctx);
    const name = operationOf03(method);
    ctx.operation = name;
    streaming = OPERATIONS[name].streaming;
    const extensions = requestedExtensions03(req.headers.get('x-a2a-extensions'));
    if (extensions !== undefined) ctx.call.requestedExtensions = extensions;
    ctx.call.protocolVersion = V03_VERSION;
    const converted = jsonRpcParamsFrom03(name, isObject(rawParams) ? rawParams : {});
    const params = withLastEventId(name, parseParams(name, converted), req);
    if (streaming) {
      const source = await ctx.service.stream(name as 'SendStreamingMessage', params, ctx.call);
      return {
        status: 200,
        headers: addExtensionsHeader03({ ...SSE_HEADERS }, ctx.call.activatedExtensions),
        body: encodeSse(source, {
          keepAliveMs: ctx.keepAliveMs,
          data: (item) => resultText(idJson, eventText03(item.event, 'jsonrpc')),
          errorFrame: (error) => sseFrame(errorJson03(idJson, toA2AError(error, ctx.onError))),
        }),
      };
    }
    const result = await ctx.service.invoke(name, params, ctx.call);
    return reply(resultText(idJson, jsonRpcResultText03(name, result)), ctx, undefined);
  } catch (error) {
    const failure = toA2AError(error, ctx.onError);
    if (streaming && failure.headers === undefined) {
      // 0.3 streaming clients read errors only from an event stream.
      return {
        status: 200,
        headers: { ...SSE_HEADERS },
        body: sseFrame(errorJson03(idJson, failure)),
        error: failure,
      };
    }
    return reply(errorJson03(idJson, failure), ctx, failure);
  }
}

/** A refusal (authentication, rate limit, cross-site) in the 0.3 JSON-RPC shape. */
export function refuseJsonRpc03(
  idJson: string,
  error: A2AError,
  ctx: BindingContext,
): HttpResponse {
  return reply(errorJson03(idJson, error), ctx, error);
}

function reply(body: string, ctx: BindingContext, error: A2AError | undefined): HttpResponse {
  const refusal = error?.headers;
  const headers = addExtensionsHeader03(
    refusal === undefined
      ? { 'content-type': CONTENT_TYPE }
      : withFields(refusal, { 'content-type': CONTENT_TYPE }),
    ctx.call.activatedExtensions,
  );
  const status = refusal === undefined || error === undefined ? 200 : httpStatus03(error);
  return error === undefined ? { status, headers, body } : { status, headers, body, error };
}

function operationOf03(method: string): OperationName {
  const name = V03_OPERATIONS.get(method);
  if (name !== undefined) return name;
  const shown = method.length > 100 ? `${method.slice(0, 100)}…` : method;
  const hint =
    method === 'tasks/list' ? ' ListTasks exists in A2A 1.0 only (send A2A-Version: 1.0).' : '';
  throw new A2AError('METHOD_NOT_FOUND', `Method not found: "${shown}".${hint}`);
}
