/**
 * Local client errors. They never mix with {@link A2AError} (what the peer said on the wire):
 * a caller always knows whether the agent refused or the pipe broke.
 */
import type { AgentInterface } from '../core/schemas/index.js';

/** Why a call failed locally. */
export type TransportErrorCode =
  /** The connection could not be made or broke (refused, DNS, reset). */
  | 'NETWORK'
  /**
   * No answer within the call timeout, retries included (or no bytes within a stream's idle
   * timeout). The request may have reached the agent: the task may still be running.
   */
  | 'TIMEOUT'
  /** The caller aborted through its AbortSignal. */
  | 'ABORTED'
  /** An HTTP status that carries no A2A error (401, 429, 503 from a proxy, HTML 404, …). */
  | 'BAD_STATUS'
  /** The reply is not what the protocol allows (wrong content type, bad JSON, invalid result). */
  | 'BAD_RESPONSE'
  /** A stream ended before its task reached a terminal or interrupted state and could not resume. */
  | 'STREAM_CLOSED';

/** Options of a {@link TransportError}. */
export interface TransportErrorOptions {
  /** HTTP status of the reply, when there was one. */
  status?: number;
  /** Server-requested delay before a retry (`Retry-After`), in milliseconds. */
  retryAfterMs?: number;
  /** The URL that was called. */
  url?: string;
  /** Attempts made, retries included (set by A2AClient on a call that timed out). */
  attempts?: number;
  /** The task the call was about, when known: it may still be running on the server. */
  taskId?: string;
  cause?: unknown;
}

/** A call that failed on this side of the wire: the peer said nothing the protocol defines. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly code: TransportErrorCode;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly url: string | undefined;
  readonly attempts: number | undefined;
  readonly taskId: string | undefined;

  constructor(code: TransportErrorCode, message: string, options: TransportErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.url = options.url;
    this.attempts = options.attempts;
    this.taskId = options.taskId;
  }
}

/** True when `value` is a {@link TransportError} (optionally with one of `codes`). */
export function isTransportError(
  value: unknown,
  ...codes: TransportErrorCode[]
): value is TransportError {
  return value instanceof TransportError && (codes.length === 0 || codes.includes(value.code));
}

/** What an agent offers versus what this client speaks, when nothing matches. */
export interface IncompatibleAgentDetails {
  offered: readonly Pick<AgentInterface, 'protocolBinding' | 'protocolVersion' | 'url'>[];
  bindings: readonly string[];
  versions: readonly string[];
}

/**
 * No interface of the agent's card uses a binding and protocol version this client speaks
 * (spec §8.3.2). Neither the peer's error nor a broken pipe: a negotiation failure before any call.
 */
export class IncompatibleAgentError extends Error {
  override readonly name = 'IncompatibleAgentError';
  readonly offered: IncompatibleAgentDetails['offered'];
  readonly bindings: readonly string[];
  readonly versions: readonly string[];

  constructor(message: string, details: IncompatibleAgentDetails) {
    super(message);
    this.offered = details.offered;
    this.bindings = details.bindings;
    this.versions = details.versions;
  }
}
