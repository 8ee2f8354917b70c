/**
 * `requestLog(logger)`: an operation middleware that writes one structured line per A2A request
 * on every binding: operation, binding, task and context ids, caller, status (`OK` or the A2A
 * error code), duration, and for streams the number of events. A stream's line is written when
 * it ends, so its duration covers the whole stream. A request refused before the middleware
 * ran (bad JSON, an unknown method, a failed authentication, …) gets its line too, through
 * `refused`: the operation when known, the binding, the code, the duration. Nothing from the
 * request's content or headers is logged (no message parts, no tokens, no push credentials).
 */
import { errorCode, paramFacts, resultFacts, type CallFacts } from '../core/call-facts.js';
import type { CallContext } from '../core/call-context.js';
import type { Logger } from '../core/logger.js';
import { isStreamingOperation, type OperationMiddleware } from '../core/middleware.js';
import type { OperationName } from '../core/operations.js';
import type { Refusal } from '../core/refusal.js';
import type { StreamItem } from '../core/service.js';

/** The fields of one request line. */
export interface RequestLogFields extends CallFacts {
  readonly event: 'a2a.request';
  /** Absent when the request was refused before its operation was known (unknown method). */
  readonly operation?: OperationName;
  readonly binding: string;
  readonly tenant?: string;
  /** The authenticated principal's id (never a credential). */
  readonly caller?: string;
  /** `OK`, or the A2A error code the caller got. */
  status: string;
  durationMs: number;
  /** Streams: events sent. */
  events?: number;
}

/**
 * The middleware writing one `info` line per request (`warn` for INTERNAL failures); its
 * `refused` writes the line of a request refused before it ran (core/refusal.ts).
 */
export function requestLog(logger: Logger): OperationMiddleware {
  const write = (fields: RequestLogFields) => {
    const text = `${fields.operation ?? 'request'} ${fields.status} ${fields.durationMs} ms`;
    if (fields.status === 'INTERNAL') logger.warn(fields, text);
    else logger.info(fields, text);
  };
  const middleware: OperationMiddleware = async (operation, params, call, next) => {
    const started = performance.now();
    const facts = paramFacts(params);
    const done = (status: string, events?: number) =>
      write(line(operation, call, facts, status, performance.now() - started, events));
    let result: unknown;
    try {
      result = await next();
    } catch (error) {
      done(errorCode(error));
      throw error;
    }
    if (!isStreamingOperation(operation)) {
      resultFacts(result, facts);
      done('OK');
      return result;
    }
    return logged(result as AsyncIterable<StreamItem>, facts, done);
  };
  const refused = (r: Refusal) =>
    write(line(r.operation, r.call, {}, r.error.code, performance.now() - r.startedAt, undefined));
  return Object.assign(middleware, { refused });
}

async function* logged(
  stream: AsyncIterable<StreamItem>,
  facts: CallFacts,
  write: (status: string, events?: number) => void,
): AsyncIterable<StreamItem> {
  let events = 0;
  let status = 'OK';
  try {
    for await (const item of stream) {
      events++;
      resultFacts(item.event, facts);
      yield item;
    }
  } catch (error) {
    status = errorCode(error);
    throw error;
  } finally {
    write(status, events);
  }
}

function line(
  operation: OperationName | undefined,
  call: CallContext,
  facts: CallFacts,
  status: string,
  durationMs: number,
  events: number | undefined,
): RequestLogFields {
  return {
    event: 'a2a.request',
    ...(operation !== undefined ? { operation } : {}),
    binding: call.protocolBinding ?? 'unknown',
    ...(call.tenant ? { tenant: call.tenant } : {}),
    ...(call.principal ? { caller: call.principal.id } : {}),
    ...facts,
    status,
    durationMs: Math.round(durationMs * 10) / 10,
    ...(events !== undefined ? { events } : {}),
  };
}
