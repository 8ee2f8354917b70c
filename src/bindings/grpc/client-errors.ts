/**
 * What a failed gRPC call means to the client: the peer's A2A error (ErrorInfo reason from
 * `grpc-status-details-bin`, else the status) or a local TransportError (the pipe broke, the
 * deadline passed, the caller aborted).
 */
import type { ServiceError } from '@grpc/grpc-js';
import { A2AError, optionsFromDetails, reasonFromDetails } from '../../core/errors.js';
import { TransportError } from '../../transport/errors.js';
import { decodeStatus } from './status.js';
import { FALLBACK_BY_STATUS, GRPC_STATUS, STATUS_DETAILS_KEY, statusName } from './wire.js';

/** Where a failure happened, for messages. */
export interface FailureContext {
  readonly operation: string;
  readonly url: string;
  readonly signal?: AbortSignal | undefined;
}

function isServiceError(error: unknown): error is ServiceError {
  return (
    error instanceof Error &&
    typeof (error as Partial<ServiceError>).code === 'number' &&
    'metadata' in error
  );
}

/** The A2AError or TransportError a thrown gRPC failure stands for. */
export function grpcFailure(error: unknown, context: FailureContext): Error {
  if (error instanceof A2AError || error instanceof TransportError) return error;
  const { operation, url, signal } = context;
  if (signal?.aborted) {
    return new TransportError('ABORTED', `${operation} was aborted by the caller`, {
      url,
      cause: error,
    });
  }
  if (!isServiceError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return new TransportError('NETWORK', `${operation} to ${url} failed: ${message}`, {
      url,
      cause: error,
    });
  }
  const text = error.details || statusName(error.code);
  const code: number = error.code;
  if (code === GRPC_STATUS.DEADLINE_EXCEEDED) {
    return new TransportError('TIMEOUT', `${operation} to ${url} timed out: ${text}`, {
      url,
      cause: error,
    });
  }
  if (code === GRPC_STATUS.UNAVAILABLE || code === GRPC_STATUS.CANCELLED) {
    return new TransportError('NETWORK', `${operation} to ${url} failed: ${text}`, {
      url,
      cause: error,
    });
  }
  const bin = error.metadata?.get(STATUS_DETAILS_KEY)[0];
  const status = bin instanceof Uint8Array ? decodeStatus(bin) : undefined;
  const details = status?.details ?? [];
  const message = error.details || status?.message || undefined;
  const reason = reasonFromDetails(details);
  if (reason !== undefined) return new A2AError(reason, message, optionsFromDetails(details));
  const fallback = FALLBACK_BY_STATUS.get(code);
  if (fallback && 'code' in fallback) {
    return new A2AError(fallback.code, message, optionsFromDetails(details));
  }
  return new TransportError(
    'BAD_STATUS',
    `${operation}: ${statusName(error.code)} from ${url}: ${text}`,
    fallback ? { url, status: fallback.httpStatus, cause: error } : { url, cause: error },
  );
}

/** The error of a stream that got no response headers (or no event) in time. */
export function streamTimeout(context: FailureContext, what: string, ms: number): TransportError {
  return new TransportError(
    'TIMEOUT',
    `${context.operation} to ${context.url}: ${what} within ${ms} ms`,
    {
      url: context.url,
    },
  );
}
