/**
 * `requestLog(logger)`: an operation middleware that writes one structured line per A2A request
 * on every binding: operation, binding, task and context ids, caller, status (`OK` or the A2A
 * error code), duration, and for streams the number of events. A stream's line is written when
 * it ends, so its duration covers the whole stream. Nothing from the request's content or
 * headers is logged (no message parts, no tokens, no push credentials).
 */
import { errorCode, paramFacts, resultFacts, type CallFacts } from '../core/call-facts.js';
import type { CallContext } from '../core/call-context.js';
import type { Logger } from '../core/logger.js';
import { isStreamingOperation, type OperationMiddleware } from '../core/middleware.js';
import type { OperationName } from '../core/operations.js';
import type { StreamItem } from '../core/service.js';

/** The fields of one request line. */
export interface RequestLogFields extends CallFacts {
  readonly event: 'a2a.request';
  readonly operation: OperationName;
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

/** The middleware writing one `info` line per request (`warn` for INTERNAL failures). */
export function requestLog(logger: Logger): OperationMiddleware {
  return async (operation, params, call, next) => {
    const started = performance.now();
    const facts = paramFacts(params);
    const write = (status: string, events?: number) => {
      const fields = line(operation, call, facts, status, performance.now() - started, events);
      const text = `${operation} ${status} ${fields.durationMs} ms`;
      if (status === 'INTERNAL') logger.warn(fields, text);
      else logger.info(fields, text);
    };
    let result: unknown;
    try {
      result = await next();
    } catch (error) {
      write(errorCode(error));
      throw error;
    }
    if (!isStreamingOperation(operation)) {
      resultFacts(result, facts);
      write('OK');
      return result;
    }
    return logged(result as AsyncIterable<StreamItem>, facts, write);
  };
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
  operation: OperationName,
  call: CallContext,
  facts: CallFacts,
  status: string,
  durationMs: number,
  events: number | undefined,
): RequestLogFields {
  return {
    event: 'a2a.request',
    operation,
    binding: call.protocolBinding ?? 'unknown',
    ...(call.tenant ? { tenant: call.tenant } : {}),
    ...(call.principal ? { caller: call.principal.id } : {}),
    ...facts,
    status,
    durationMs: Math.round(durationMs * 10) / 10,
    ...(events !== undefined ? { events } : {}),
  };
}
