/**
 * Wire facts the conformance suite checks replies against, written from the spec (A2A v1.0.1,
 * spec §3.1, §5.3 and §5.4) and NOT imported from src/, so the suite checks the server independently.
 * Also the normalisation of the three bindings' error shapes into one {@link WireError}.
 */

/** The 11 operations by their spec names (spec §3.1). */
export const OPERATIONS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
] as const;
export type Operation = (typeof OPERATIONS)[number];
export type StreamOperation = 'SendStreamingMessage' | 'SubscribeToTask';

/** The A2A error types by their ErrorInfo reason (spec §5.4). */
export type A2AReason =
  | 'TASK_NOT_FOUND'
  | 'TASK_NOT_CANCELABLE'
  | 'PUSH_NOTIFICATION_NOT_SUPPORTED'
  | 'UNSUPPORTED_OPERATION'
  | 'CONTENT_TYPE_NOT_SUPPORTED'
  | 'INVALID_AGENT_RESPONSE'
  | 'EXTENDED_AGENT_CARD_NOT_CONFIGURED'
  | 'EXTENSION_SUPPORT_REQUIRED'
  | 'VERSION_NOT_SUPPORTED'
  // The A2A 1.1 draft's TaskGenerationMismatchError (spec dev-1.1 §3.3.2, §5.4).
  | 'TASK_GENERATION_MISMATCH';

/**
 * How each binding renders an A2A error: the v1.0.1 mapping (spec §5.4). `status`
 * is the google.rpc status of the HTTP+JSON body, `grpc` the gRPC status code (v1.0.0 used
 * UNIMPLEMENTED for three of them; v1.0.1 does not).
 */
// prettier-ignore
export const A2A_ERRORS: Readonly<Record<A2AReason, { jsonrpc: number; http: number; status: string; grpc: GrpcCodeName }>> = {
  TASK_NOT_FOUND: { jsonrpc: -32001, http: 404, status: 'NOT_FOUND', grpc: 'NOT_FOUND' },
  TASK_NOT_CANCELABLE: { jsonrpc: -32002, http: 400, status: 'FAILED_PRECONDITION', grpc: 'FAILED_PRECONDITION' },
  PUSH_NOTIFICATION_NOT_SUPPORTED: { jsonrpc: -32003, http: 400, status: 'FAILED_PRECONDITION', grpc: 'FAILED_PRECONDITION' },
  UNSUPPORTED_OPERATION: { jsonrpc: -32004, http: 400, status: 'FAILED_PRECONDITION', grpc: 'FAILED_PRECONDITION' },
  CONTENT_TYPE_NOT_SUPPORTED: { jsonrpc: -32005, http: 400, status: 'INVALID_ARGUMENT', grpc: 'INVALID_ARGUMENT' },
  INVALID_AGENT_RESPONSE: { jsonrpc: -32006, http: 500, status: 'INTERNAL', grpc: 'INTERNAL' },
  EXTENDED_AGENT_CARD_NOT_CONFIGURED: { jsonrpc: -32007, http: 400, status: 'FAILED_PRECONDITION', grpc: 'FAILED_PRECONDITION' },
  EXTENSION_SUPPORT_REQUIRED: { jsonrpc: -32008, http: 400, status: 'FAILED_PRECONDITION', grpc: 'FAILED_PRECONDITION' },
  VERSION_NOT_SUPPORTED: { jsonrpc: -32009, http: 400, status: 'FAILED_PRECONDITION', grpc: 'FAILED_PRECONDITION' },
  TASK_GENERATION_MISMATCH: { jsonrpc: -32010, http: 409, status: 'ABORTED', grpc: 'ABORTED' },
};

/** The numeric gRPC status codes (google/rpc/code.proto). */
export const GRPC_CODES = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;
export type GrpcCodeName = keyof typeof GRPC_CODES;

/** The standard JSON-RPC 2.0 error codes (spec §9.5). */
export const JSONRPC_CODES = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
} as const;
export type JsonRpcStandardError = keyof typeof JSONRPC_CODES;

/**
 * google.rpc.Code names and the HTTP status each maps to (google/rpc/code.proto). A REST error's
 * `status` must agree with its `code` where the HTTP status is one of these.
 */
export const CANONICAL_HTTP_STATUS: Readonly<Record<string, number>> = {
  CANCELLED: 499,
  UNKNOWN: 500,
  INVALID_ARGUMENT: 400,
  DEADLINE_EXCEEDED: 504,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  PERMISSION_DENIED: 403,
  UNAUTHENTICATED: 401,
  RESOURCE_EXHAUSTED: 429,
  FAILED_PRECONDITION: 400,
  ABORTED: 409,
  OUT_OF_RANGE: 400,
  UNIMPLEMENTED: 501,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DATA_LOSS: 500,
};

export const ERROR_DOMAIN = 'a2a-protocol.org';
export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
export const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';
export const A2A_JSON = 'application/a2a+json';

/**
 * The bindings under test: the three standard ones, NATS (the custom binding of
 * docs/bindings/nats.md, whose errors have the HTTP+JSON shape) when a NATS server is configured,
 * and the A2A 0.3 JSON-RPC, HTTP+JSON (test/helpers/v03-driver.ts) and gRPC
 * (test/helpers/v03-grpc-driver.ts) bindings of `compat: ['0.3']`.
 */
export type BindingName =
  'JSONRPC' | 'HTTP+JSON' | 'GRPC' | 'NATS' | 'JSONRPC 0.3' | 'HTTP+JSON 0.3' | 'GRPC 0.3';

/** The card's `protocolBinding` of each binding (NATS: its URI, docs/bindings/nats.md). */
export const PROTOCOL_BINDING: Readonly<Record<BindingName, string>> = {
  JSONRPC: 'JSONRPC',
  'HTTP+JSON': 'HTTP+JSON',
  GRPC: 'GRPC',
  NATS: 'https://a2a-kit.dev/bindings/nats/v1',
  'JSONRPC 0.3': 'JSONRPC',
  'HTTP+JSON 0.3': 'HTTP+JSON',
  'GRPC 0.3': 'GRPC',
};

/** An error reply of any binding, normalised. */
export interface WireError {
  readonly binding: BindingName;
  /**
   * The A2A reason when an A2A ErrorInfo is present; else the JSON-RPC standard error name
   * (JSON-RPC) or the google.rpc status name (HTTP+JSON, gRPC); else `jsonrpc:<code>`.
   */
  readonly code: string;
  /** The HTTP status (gRPC: always 200, the status travels in the trailers). */
  readonly httpStatus: number;
  /** JSON-RPC `error.code` (JSON-RPC only). */
  readonly rpcCode: number | undefined;
  /** google.rpc status name: of the HTTP+JSON body, or of the gRPC status code. */
  readonly status: string | undefined;
  /** The numeric gRPC status code (gRPC only). */
  readonly grpcCode: number | undefined;
  readonly message: string;
  /** JSON-RPC `error.data` / google.rpc.Status `details`: `@type` objects. */
  readonly details: readonly Record<string, unknown>[];
  readonly raw: unknown;
}

/** A reply that breaks the binding's shape rules: the test fails with this. */
export class MalformedReply extends Error {
  override readonly name = 'MalformedReply';
}

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` as a JSON object, or a MalformedReply naming `what`. */
export function record(value: unknown, what: string): Record<string, unknown> {
  if (!isRecord(value)) throw new MalformedReply(`${what} must be a JSON object`);
  return value;
}

/** `value` as an array, or a MalformedReply naming `what`. */
export function array(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new MalformedReply(`${what} must be an array`);
  return value;
}

/** The ErrorInfo among `details` whose domain is the A2A domain, if any. */
export function a2aErrorInfo(details: readonly unknown[]): Record<string, unknown> | undefined {
  return details
    .filter(isRecord)
    .find((d) => d['@type'] === ERROR_INFO_TYPE && d.domain === ERROR_DOMAIN);
}

/** Checks each detail is an object with a string `@type` (spec §3.3.2, ProtoJSON Any). */
export function typedDetails(value: unknown, what: string): Record<string, unknown>[] {
  return array(value, what).map((d, i) => {
    const detail = record(d, `${what}[${i}]`);
    if (typeof detail['@type'] !== 'string') throw new MalformedReply(`${what}[${i}] has no @type`);
    return detail;
  });
}

/** The A2A ErrorInfo `reason` among `details`, if any. */
export function reasonOf(details: readonly Record<string, unknown>[]): string | undefined {
  const info = a2aErrorInfo(details);
  return typeof info?.reason === 'string' ? info.reason : undefined;
}

/** Normalises a JSON-RPC `error` member (spec §9.5), checking its shape. */
export function jsonRpcError(error: unknown, httpStatus: number, raw: unknown): WireError {
  const e = record(error, 'error');
  if (typeof e.code !== 'number' || !Number.isInteger(e.code))
    throw new MalformedReply('error.code must be an integer');
  if (typeof e.message !== 'string') throw new MalformedReply('error.message must be a string');
  const details = e.data === undefined ? [] : typedDetails(e.data, 'error.data');
  const standard = Object.entries(JSONRPC_CODES).find(([, code]) => code === e.code)?.[0];
  return {
    binding: 'JSONRPC',
    code: reasonOf(details) ?? standard ?? `jsonrpc:${e.code}`,
    httpStatus,
    rpcCode: e.code,
    status: undefined,
    grpcCode: undefined,
    message: e.message,
    details,
    raw,
  };
}

/** Normalises a google.rpc.Status error body (spec §11.6), checking its shape. */
export function restError(body: unknown, httpStatus: number): WireError {
  const e = record(record(body, 'error body').error, 'error body "error"');
  if (e.code !== httpStatus)
    throw new MalformedReply(`error.code ${String(e.code)} differs from HTTP status ${httpStatus}`);
  if (typeof e.status !== 'string') throw new MalformedReply('error.status must be a string');
  if (typeof e.message !== 'string') throw new MalformedReply('error.message must be a string');
  const details = e.details === undefined ? [] : typedDetails(e.details, 'error.details');
  return {
    binding: 'HTTP+JSON',
    code: reasonOf(details) ?? e.status,
    httpStatus,
    rpcCode: undefined,
    status: e.status,
    grpcCode: undefined,
    message: e.message,
    details,
    raw: body,
  };
}

/** Parses JSON text, or undefined when it is not JSON. */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `type/subtype` of a Content-Type header, lower-case, without parameters. */
export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
