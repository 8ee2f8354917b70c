/**
 * The A2A 0.3 wire facts, written once (0.3 spec §6-§7, §8; its proto package `a2a.v1`): JSON-RPC
 * method names, the 0.3 error codes, the task-state spellings of the two 0.3 dialects (JSON-RPC
 * uses the JSON Schema's lowercase words, HTTP+JSON and gRPC the proto enum names, with
 * `TASK_STATE_CANCELLED` spelled with two L), and how a request is told to be 0.3.
 */
import type { A2AErrorCode } from '../../core/errors.js';
import { majorMinor } from '../../core/interfaces.js';
import type { OperationName } from '../../core/operations.js';
import type { TaskState } from '../../core/schemas/index.js';

/** The protocol version the compatibility bindings speak, as the card's interfaces list it. */
export const V03_VERSION = '0.3';
/** The `protocolVersion` a 0.3 card carries at its top level (0.3 spec §5.5). */
export const V03_CARD_VERSION = '0.3.0';

/** The 0.3 JSON-RPC method of each operation 0.3 has (0.3 spec §7). ListTasks has none. */
export const V03_METHODS: Readonly<Partial<Record<OperationName, string>>> = {
  SendMessage: 'message/send',
  SendStreamingMessage: 'message/stream',
  GetTask: 'tasks/get',
  CancelTask: 'tasks/cancel',
  SubscribeToTask: 'tasks/resubscribe',
  CreateTaskPushNotificationConfig: 'tasks/pushNotificationConfig/set',
  GetTaskPushNotificationConfig: 'tasks/pushNotificationConfig/get',
  ListTaskPushNotificationConfigs: 'tasks/pushNotificationConfig/list',
  DeleteTaskPushNotificationConfig: 'tasks/pushNotificationConfig/delete',
  GetExtendedAgentCard: 'agent/getAuthenticatedExtendedCard',
};

/** The operation of a 0.3 JSON-RPC method, by name. */
export const V03_OPERATIONS: ReadonlyMap<string, OperationName> = new Map(
  Object.entries(V03_METHODS).map(([op, method]) => [method, op as OperationName]),
);

/**
 * The JSON-RPC code a 0.3 caller gets for each error (0.3 spec §8.1-§8.2). 0.3 defines
 * -32001…-32007 with the same meanings as 1.0; the codes 1.0 added (-32008 extension required,
 * -32009 version, the 1.1 draft's -32010 generation mismatch) do not exist there, so they are sent as the generic codes that say the same.
 */
export const V03_JSONRPC_CODES: Readonly<Record<A2AErrorCode, number>> = {
  TASK_NOT_FOUND: -32001,
  TASK_NOT_CANCELABLE: -32002,
  PUSH_NOTIFICATION_NOT_SUPPORTED: -32003,
  UNSUPPORTED_OPERATION: -32004,
  CONTENT_TYPE_NOT_SUPPORTED: -32005,
  INVALID_AGENT_RESPONSE: -32006,
  EXTENDED_AGENT_CARD_NOT_CONFIGURED: -32007,
  EXTENSION_SUPPORT_REQUIRED: -32600,
  VERSION_NOT_SUPPORTED: -32600,
  TASK_GENERATION_MISMATCH: -32600,
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  METHOD_NOT_ALLOWED: -32601,
  INVALID_PARAMS: -32602,
  PAYLOAD_TOO_LARGE: -32600,
  UNSUPPORTED_MEDIA_TYPE: -32600,
  INTERNAL: -32603,
  UNAUTHENTICATED: -31401,
  PERMISSION_DENIED: -31403,
  RATE_LIMITED: -31429,
  UNAVAILABLE: -31503,
};

/** The error code a 0.3 JSON-RPC code stands for (client side). */
export const CODE_BY_V03_JSONRPC: ReadonlyMap<number, A2AErrorCode> = new Map([
  [-32001, 'TASK_NOT_FOUND'],
  [-32002, 'TASK_NOT_CANCELABLE'],
  [-32003, 'PUSH_NOTIFICATION_NOT_SUPPORTED'],
  [-32004, 'UNSUPPORTED_OPERATION'],
  [-32005, 'CONTENT_TYPE_NOT_SUPPORTED'],
  [-32006, 'INVALID_AGENT_RESPONSE'],
  [-32007, 'EXTENDED_AGENT_CARD_NOT_CONFIGURED'],
  [-32700, 'PARSE_ERROR'],
  [-32600, 'INVALID_REQUEST'],
  [-32601, 'METHOD_NOT_FOUND'],
  [-32602, 'INVALID_PARAMS'],
  [-32603, 'INTERNAL'],
  [-31401, 'UNAUTHENTICATED'],
  [-31403, 'PERMISSION_DENIED'],
  [-31429, 'RATE_LIMITED'],
  [-31503, 'UNAVAILABLE'],
]);

/** The two 0.3 dialects: the JSON-RPC JSON Schema, and proto-JSON of `a2a.v1` (REST, gRPC). */
export type Dialect = 'jsonrpc' | 'proto';

/** 1.0 state → 0.3 JSON-RPC word (0.3 spec §6.3 `TaskState`). */
const STATE_WORDS: Readonly<Record<TaskState, string>> = {
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_REJECTED: 'rejected',
  TASK_STATE_AUTH_REQUIRED: 'auth-required',
};

const STATE_BY_WORD = new Map<string, TaskState>(
  Object.entries(STATE_WORDS).map(([state, word]) => [word, state as TaskState]),
);

/** The 0.3 spelling of a 1.0 state in `dialect`. */
export function stateTo03(state: TaskState, dialect: Dialect): string {
  if (dialect === 'jsonrpc') return STATE_WORDS[state];
  return state === 'TASK_STATE_CANCELED' ? 'TASK_STATE_CANCELLED' : state;
}

/** The 1.0 state of a 0.3 spelling (either dialect); unknown spellings pass through unchanged. */
export function stateFrom03(state: unknown): unknown {
  if (typeof state !== 'string') return state;
  if (state === 'TASK_STATE_CANCELLED') return 'TASK_STATE_CANCELED';
  return STATE_BY_WORD.get(state) ?? state;
}

/**
 * True when a request with this `A2A-Version` (`''`: none) is a 0.3 request: no header means 0.3
 * (spec §3.6.2), and 0.3 clients that send one send `0.3` or `0.3.x`.
 */
export function isV03Version(version: string): boolean {
  return version === '' || majorMinor(version) === V03_VERSION;
}
