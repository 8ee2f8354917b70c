/**
 * The error catalog: every error code a2a-kit puts on the wire, with its mapping to each binding
 * (A2A v1.0.1 values, spec §3.3.2, §5.4). One table, so a new code does not compile until
 * every binding maps it.
 */

/** gRPC canonical status names (google.rpc.Code) used by the mapping. */
export type GrpcStatusName =
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'FAILED_PRECONDITION'
  | 'ABORTED'
  | 'UNIMPLEMENTED'
  | 'INTERNAL'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'RESOURCE_EXHAUSTED'
  | 'UNAVAILABLE';

interface ErrorMapping {
  /** Default human message. */
  readonly message: string;
  /** True for the A2A-defined errors: they carry ErrorInfo with domain `a2a-protocol.org`. */
  readonly a2a: boolean;
  readonly jsonrpc: number;
  readonly http: number;
  readonly grpc: GrpcStatusName;
}

/** ErrorInfo `domain` of A2A errors (spec §11.6). */
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';
/**
 * ErrorInfo `domain` of PAYLOAD_TOO_LARGE: not an A2A reason, but it lets a client tell the error
 * (and its limit, in the metadata) apart where its code is shared: JSON-RPC -32600, gRPC
 * RESOURCE_EXHAUSTED. Other generic errors carry no ErrorInfo.
 */
export const KIT_ERROR_DOMAIN = 'a2a-kit';
const KIT_REASONS: ReadonlySet<string> = new Set(['PAYLOAD_TOO_LARGE']);

// prettier-ignore
export const ERROR_CATALOG = {
  TASK_NOT_FOUND: { message: 'Task not found', a2a: true, jsonrpc: -32001, http: 404, grpc: 'NOT_FOUND' },
  TASK_NOT_CANCELABLE: { message: 'Task cannot be canceled', a2a: true, jsonrpc: -32002, http: 400, grpc: 'FAILED_PRECONDITION' },
  PUSH_NOTIFICATION_NOT_SUPPORTED: { message: 'Push notifications are not supported by this agent', a2a: true, jsonrpc: -32003, http: 400, grpc: 'FAILED_PRECONDITION' },
  UNSUPPORTED_OPERATION: { message: 'This operation is not supported', a2a: true, jsonrpc: -32004, http: 400, grpc: 'FAILED_PRECONDITION' },
  CONTENT_TYPE_NOT_SUPPORTED: { message: 'Content type not supported', a2a: true, jsonrpc: -32005, http: 400, grpc: 'INVALID_ARGUMENT' },
  INVALID_AGENT_RESPONSE: { message: 'The agent produced an invalid response', a2a: true, jsonrpc: -32006, http: 500, grpc: 'INTERNAL' },
  EXTENDED_AGENT_CARD_NOT_CONFIGURED: { message: 'No extended agent card is configured', a2a: true, jsonrpc: -32007, http: 400, grpc: 'FAILED_PRECONDITION' },
  EXTENSION_SUPPORT_REQUIRED: { message: 'A required extension was not activated', a2a: true, jsonrpc: -32008, http: 400, grpc: 'FAILED_PRECONDITION' },
  VERSION_NOT_SUPPORTED: { message: 'Protocol version not supported', a2a: true, jsonrpc: -32009, http: 400, grpc: 'FAILED_PRECONDITION' },
  // A2A 1.1 draft (spec dev-1.1 §3.2.7, §5.4), served behind A2AServerOptions.generations.
  TASK_GENERATION_MISMATCH: { message: 'Task generation mismatch', a2a: true, jsonrpc: -32010, http: 409, grpc: 'ABORTED' },
  PARSE_ERROR: { message: 'Request body is not valid JSON', a2a: false, jsonrpc: -32700, http: 400, grpc: 'INVALID_ARGUMENT' },
  INVALID_REQUEST: { message: 'Invalid request', a2a: false, jsonrpc: -32600, http: 400, grpc: 'INVALID_ARGUMENT' },
  METHOD_NOT_FOUND: { message: 'Method not found', a2a: false, jsonrpc: -32601, http: 404, grpc: 'NOT_FOUND' },
  METHOD_NOT_ALLOWED: { message: 'HTTP method not allowed on this route', a2a: false, jsonrpc: -32601, http: 405, grpc: 'UNIMPLEMENTED' },
  INVALID_PARAMS: { message: 'Invalid parameters', a2a: false, jsonrpc: -32602, http: 400, grpc: 'INVALID_ARGUMENT' },
  PAYLOAD_TOO_LARGE: { message: 'Request body too large', a2a: false, jsonrpc: -32600, http: 413, grpc: 'RESOURCE_EXHAUSTED' },
  UNSUPPORTED_MEDIA_TYPE: { message: 'Unsupported request content type', a2a: false, jsonrpc: -32600, http: 415, grpc: 'INVALID_ARGUMENT' },
  INTERNAL: { message: 'Internal error', a2a: false, jsonrpc: -32603, http: 500, grpc: 'INTERNAL' },
  // Application-defined JSON-RPC codes (outside the reserved -32768..-32000, so no future A2A code
  // can collide): -31000 minus the HTTP status. The HTTP status of these replies is the same.
  UNAUTHENTICATED: { message: 'Authentication required', a2a: false, jsonrpc: -31401, http: 401, grpc: 'UNAUTHENTICATED' },
  PERMISSION_DENIED: { message: 'Permission denied', a2a: false, jsonrpc: -31403, http: 403, grpc: 'PERMISSION_DENIED' },
  RATE_LIMITED: { message: 'Too many requests', a2a: false, jsonrpc: -31429, http: 429, grpc: 'RESOURCE_EXHAUSTED' },
  UNAVAILABLE: { message: 'Temporarily unavailable, retry later', a2a: false, jsonrpc: -31503, http: 503, grpc: 'UNAVAILABLE' },
} as const satisfies Record<string, ErrorMapping>;

/** Every error code a2a-kit sends or recognises. */
export type A2AErrorCode = keyof typeof ERROR_CATALOG;

/** A `google.rpc.BadRequest.FieldViolation`. */
export interface FieldViolation {
  field: string;
  description: string;
}

/** Options of an {@link A2AError}. */
export interface A2AErrorOptions {
  /** ErrorInfo metadata (string to string), e.g. `{ taskId }`. */
  metadata?: Record<string, string>;
  /** Validation failures, sent as google.rpc.BadRequest. */
  fieldViolations?: FieldViolation[];
  /** The raw `@type` detail objects received from a peer (client side). */
  details?: unknown[];
  /**
   * Marks a refusal (401, 403, 429) and carries its HTTP response headers (`WWW-Authenticate`,
   * `Retry-After`): HTTP bindings send them with the catalog's HTTP status, JSON-RPC included.
   */
  headers?: Readonly<Record<string, string>>;
  cause?: unknown;
}

/**
 * Bounds on what an error carries, so a client-supplied value echoed into an error (an id in
 * "Task … not found", a header value, a field path) cannot grow the reply without limit. On gRPC
 * the message and the details travel in HTTP/2 trailers, whose whole header block a peer may cap
 * (Node's default is 64 KiB): within these bounds an error's trailers stay under about 16 KiB of
 * ASCII, and under about 52 KiB even when every character needs three UTF-8 bytes.
 */
export const ERROR_BOUNDS = {
  /** Characters of the message; longer ones end in `… (N more characters)`. */
  message: 1024,
  /** Characters of each ErrorInfo metadata value (a full id fits: ids are capped at 1024). */
  metadataValue: 1024,
  /** Characters of each ErrorInfo metadata key. */
  metadataKey: 64,
  /** ErrorInfo metadata entries (errors set one or two). */
  metadataEntries: 4,
  /** Characters of a field violation's `field` and of its `description`. */
  violationText: 256,
  /** Field violations; past this the last one says how many more there were. */
  violations: 10,
} as const;

/** `text` cut to `max` characters, ending in `… (N more characters)` when it was longer. */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = (rest: number) => `… (${rest} more characters)`;
  let keep = Math.max(0, max - note(text.length).length);
  // Never cut a surrogate pair in half (the half would be sent as U+FFFD).
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep--;
  return text.slice(0, keep) + note(text.length - keep);
}

function boundMetadata(metadata: Record<string, string>): Record<string, string> {
  const entries = Object.entries(metadata);
  const bounded = entries.length > ERROR_BOUNDS.metadataEntries;
  let changed = bounded;
  const out: Record<string, string> = {};
  for (const [key, value] of entries.slice(0, ERROR_BOUNDS.metadataEntries)) {
    const k = boundText(key, ERROR_BOUNDS.metadataKey);
    const v = boundText(String(value), ERROR_BOUNDS.metadataValue);
    if (k !== key || v !== value) changed = true;
    out[k] = v;
  }
  return changed ? out : metadata;
}

function boundViolations(violations: FieldViolation[]): FieldViolation[] {
  const max = ERROR_BOUNDS.violations;
  const text = (s: string) => boundText(String(s), ERROR_BOUNDS.violationText);
  const long = (v: FieldViolation) =>
    String(v.field).length > ERROR_BOUNDS.violationText ||
    String(v.description).length > ERROR_BOUNDS.violationText;
  if (violations.length <= max && !violations.some(long)) return violations;
  const kept = violations.length > max ? violations.slice(0, max - 1) : violations;
  const out = kept.map((v) => ({ field: text(v.field), description: text(v.description) }));
  if (violations.length > max) {
    out.push({ field: '', description: `${violations.length - kept.length} more violations` });
  }
  return out;
}

/**
 * An error the peer said (or will say) on the wire, with its spec code. The message, metadata
 * and field violations are cut to {@link ERROR_BOUNDS} here, the one place every binding's
 * errors pass through.
 */
export class A2AError extends Error {
  override readonly name = 'A2AError';
  readonly code: A2AErrorCode;
  readonly metadata: Record<string, string>;
  readonly fieldViolations: FieldViolation[];
  readonly details: unknown[];
  /** Set on refusals: the HTTP headers to answer with (see {@link A2AErrorOptions.headers}). */
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(code: A2AErrorCode, message?: string, options: A2AErrorOptions = {}) {
    super(boundText(message ?? ERROR_CATALOG[code].message, ERROR_BOUNDS.message), {
      cause: options.cause,
    });
    this.code = code;
    this.metadata = boundMetadata(options.metadata ?? {});
    this.fieldViolations = boundViolations(options.fieldViolations ?? []);
    this.details = options.details ?? [];
    this.headers = options.headers;
  }
}

/** True when `value` is an {@link A2AError}. */
export function isA2AError(value: unknown): value is A2AError {
  return value instanceof A2AError;
}

/**
 * Builds the spec detail objects (`@type` Any) of an error: ErrorInfo (A2A errors, and
 * PAYLOAD_TOO_LARGE in {@link KIT_ERROR_DOMAIN}) and BadRequest.
 */
export function errorDetails(error: A2AError): Record<string, unknown>[] {
  const details: Record<string, unknown>[] = [];
  const a2a = ERROR_CATALOG[error.code].a2a;
  const hasMetadata = Object.keys(error.metadata).length > 0;
  if (a2a || KIT_REASONS.has(error.code)) {
    const info: Record<string, unknown> = {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: error.code,
      domain: a2a ? A2A_ERROR_DOMAIN : KIT_ERROR_DOMAIN,
    };
    if (hasMetadata) info.metadata = error.metadata;
    details.push(info);
  }
  if (error.fieldViolations.length > 0) {
    details.push({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: error.fieldViolations,
    });
  }
  return details;
}

/**
 * Reads the reason out of received detail objects: an A2A ErrorInfo's, or one in
 * {@link KIT_ERROR_DOMAIN}; undefined when there is neither.
 */
export function reasonFromDetails(details: unknown): A2AErrorCode | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const d of details) {
    if (!d || typeof d !== 'object') continue;
    const { domain, reason } = d as Record<string, unknown>;
    if (typeof reason !== 'string' || !Object.hasOwn(ERROR_CATALOG, reason)) continue;
    const a2a = ERROR_CATALOG[reason as A2AErrorCode].a2a;
    if (
      a2a ? domain === A2A_ERROR_DOMAIN : domain === KIT_ERROR_DOMAIN && KIT_REASONS.has(reason)
    ) {
      return reason as A2AErrorCode;
    }
  }
  return undefined;
}

/** Reads ErrorInfo metadata and field violations back out of received detail objects. */
export function optionsFromDetails(details: unknown): A2AErrorOptions {
  const options: A2AErrorOptions = { details: Array.isArray(details) ? details : [] };
  for (const d of options.details ?? []) {
    if (!d || typeof d !== 'object') continue;
    const o = d as Record<string, unknown>;
    if (o.metadata && typeof o.metadata === 'object')
      options.metadata = o.metadata as Record<string, string>;
    if (Array.isArray(o.fieldViolations))
      options.fieldViolations = o.fieldViolations as FieldViolation[];
  }
  return options;
}

/** JSON-RPC code → error code, for clients (first listed wins where codes are shared). */
export const CODE_BY_JSONRPC: ReadonlyMap<number, A2AErrorCode> = reverse('jsonrpc');
/** HTTP status → error code, for HTTP+JSON errors that carry no A2A ErrorInfo. */
export const CODE_BY_HTTP: ReadonlyMap<number, A2AErrorCode> = new Map<number, A2AErrorCode>([
  [400, 'INVALID_PARAMS'],
  [404, 'METHOD_NOT_FOUND'],
  [405, 'METHOD_NOT_ALLOWED'],
  [413, 'PAYLOAD_TOO_LARGE'],
  [415, 'UNSUPPORTED_MEDIA_TYPE'],
  [500, 'INTERNAL'],
]);

function reverse(column: 'jsonrpc'): Map<number, A2AErrorCode> {
  const map = new Map<number, A2AErrorCode>();
  for (const [code, m] of Object.entries(ERROR_CATALOG) as [A2AErrorCode, ErrorMapping][]) {
    if (!map.has(m[column])) map.set(m[column], code);
  }
  return map;
}

/** Called with every unexpected (non-A2AError) failure before it is answered as INTERNAL. */
export type InternalErrorReporter = (error: unknown) => void;

/**
 * The A2AError to put on the wire for anything thrown. Spec errors pass through; anything else is
 * a bug: it is reported to `onError` and answered with a generic INTERNAL error, so internals
 * never leak to the caller (spec §13.4).
 */
export function toA2AError(error: unknown, onError: InternalErrorReporter): A2AError {
  if (isA2AError(error)) return error;
  try {
    onError(error);
  } catch {
    // A failing reporter must not turn one error into a crash.
  }
  return new A2AError('INTERNAL');
}

/** Logs unexpected errors to stderr: the default {@link InternalErrorReporter}. */
export function logInternalError(error: unknown): void {
  console.error('[a2a-kit] internal error while handling a request:', error);
}
