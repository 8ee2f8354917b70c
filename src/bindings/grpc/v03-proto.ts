/**
 * Wire facts of the A2A 0.3 gRPC binding (0.3 spec §3.2.2), written once: the service
 * `a2a.v1.A2AService` of `proto/v03/a2a.proto` (loaded next to 1.0's, lazily), its rpcs and the
 * operation each one is, the `json_name` renames the converters must know, and the statuses 0.3
 * callers get for each error (what the 0.3 SDKs send; the 0.3 spec only says "map A2A error
 * codes to appropriate gRPC status codes").
 */
import { A2AError, type A2AErrorCode } from '../../core/errors.js';
import type { OperationName } from '../../core/operations.js';
import { loadOtherProto, type LoadedProto } from './proto.js';
import { grpcStatusOf } from './status.js';
import { GRPC_STATUS } from './wire.js';

/** The proto package of A2A 0.3. */
export const V03_PACKAGE = 'a2a.v1';
/** The fully qualified 0.3 service name. */
export const V03_SERVICE_NAME = `${V03_PACKAGE}.A2AService`;
/** The 0.3 metadata key of requested and activated extensions (the 0.3 SDKs' `X-A2A-Extensions`). */
export const V03_EXTENSIONS_KEY = 'x-a2a-extensions';

/** One 0.3 rpc: the operation it is, its request and response messages (fully qualified). */
export interface Rpc03 {
  readonly operation: OperationName;
  readonly request: string;
  readonly response: string;
}

const t = (name: string) => `${V03_PACKAGE}.${name}`;

/** The rpcs of `a2a.v1.A2AService`, by rpc name. ListTasks has none. */
// prettier-ignore
export const V03_RPCS: Readonly<Record<string, Rpc03>> = {
  SendMessage: { operation: 'SendMessage', request: t('SendMessageRequest'), response: t('SendMessageResponse') },
  SendStreamingMessage: { operation: 'SendStreamingMessage', request: t('SendMessageRequest'), response: t('StreamResponse') },
  GetTask: { operation: 'GetTask', request: t('GetTaskRequest'), response: t('Task') },
  CancelTask: { operation: 'CancelTask', request: t('CancelTaskRequest'), response: t('Task') },
  TaskSubscription: { operation: 'SubscribeToTask', request: t('TaskSubscriptionRequest'), response: t('StreamResponse') },
  CreateTaskPushNotificationConfig: { operation: 'CreateTaskPushNotificationConfig', request: t('CreateTaskPushNotificationConfigRequest'), response: t('TaskPushNotificationConfig') },
  GetTaskPushNotificationConfig: { operation: 'GetTaskPushNotificationConfig', request: t('GetTaskPushNotificationConfigRequest'), response: t('TaskPushNotificationConfig') },
  ListTaskPushNotificationConfig: { operation: 'ListTaskPushNotificationConfigs', request: t('ListTaskPushNotificationConfigRequest'), response: t('ListTaskPushNotificationConfigResponse') },
  GetAgentCard: { operation: 'GetExtendedAgentCard', request: t('GetAgentCardRequest'), response: t('AgentCard') },
  DeleteTaskPushNotificationConfig: { operation: 'DeleteTaskPushNotificationConfig', request: t('DeleteTaskPushNotificationConfigRequest'), response: 'google.protobuf.Empty' },
};

/** The 0.3 rpc name of each operation 0.3 has. */
export const V03_RPC_OF: Readonly<Partial<Record<OperationName, string>>> = Object.fromEntries(
  Object.entries(V03_RPCS).map(([rpc, { operation }]) => [operation, rpc]),
);

/**
 * The fields the 0.3 proto renames in ProtoJSON (`json_name`), which proto-loader does not keep:
 * so the converters' objects are the proto-JSON the 0.3 REST conversions (v03/convert.ts) read
 * and write.
 */
const JSON_NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  [t('TaskStatus')]: { update: 'message' },
  [t('SendMessageRequest')]: { request: 'message' },
  [t('SendMessageResponse')]: { msg: 'message' },
  [t('StreamResponse')]: { msg: 'message' },
};

let loaded: LoadedProto | undefined;

/** The 0.3 proto, loaded on first use (its messages then convert like 1.0's). */
export function protoV03(): LoadedProto {
  loaded ??= loadOtherProto(['v03/a2a.proto'], V03_SERVICE_NAME, JSON_NAMES);
  return loaded;
}

/**
 * The statuses that differ from 1.0's for 0.3 callers: the 0.3 SDKs answer an unsupported
 * operation (push, streaming, extended card) with UNIMPLEMENTED, and a method 0.3 lacks is
 * UNIMPLEMENTED as gRPC itself answers it.
 */
const STATUS_03: Readonly<Partial<Record<A2AErrorCode, number>>> = {
  PUSH_NOTIFICATION_NOT_SUPPORTED: GRPC_STATUS.UNIMPLEMENTED,
  UNSUPPORTED_OPERATION: GRPC_STATUS.UNIMPLEMENTED,
  METHOD_NOT_FOUND: GRPC_STATUS.UNIMPLEMENTED,
};

/** The gRPC status a 0.3 caller gets for `error`. */
export function grpcStatus03(error: A2AError): number {
  return STATUS_03[error.code] ?? grpcStatusOf(error);
}

const PUSH_OPERATIONS: ReadonlySet<OperationName> = new Set([
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
]);

/**
 * The A2A error a 0.3 status stands for on `operation` (client side, for servers that send no
 * ErrorInfo): the reading of the 0.3 SDKs' clients, undefined for the statuses left to the
 * generic gRPC mapping.
 */
export function errorCodeOf03(status: number, operation: OperationName): A2AErrorCode | undefined {
  switch (status) {
    case GRPC_STATUS.NOT_FOUND:
      return 'TASK_NOT_FOUND';
    case GRPC_STATUS.FAILED_PRECONDITION:
      if (operation === 'CancelTask') return 'TASK_NOT_CANCELABLE';
      if (operation === 'GetExtendedAgentCard') return 'EXTENDED_AGENT_CARD_NOT_CONFIGURED';
      return 'UNSUPPORTED_OPERATION';
    case GRPC_STATUS.UNIMPLEMENTED:
      if (PUSH_OPERATIONS.has(operation)) return 'PUSH_NOTIFICATION_NOT_SUPPORTED';
      return 'UNSUPPORTED_OPERATION';
    case GRPC_STATUS.INVALID_ARGUMENT:
      return 'INVALID_PARAMS';
    case GRPC_STATUS.INTERNAL:
      return 'INTERNAL';
    default:
      return undefined;
  }
}

/** The refusal of an operation 0.3 does not have (ListTasks), before anything is sent. */
export function notIn03(operation: OperationName): A2AError {
  return new A2AError(
    'UNSUPPORTED_OPERATION',
    `${operation} does not exist in A2A 0.3; this agent's interface speaks 0.3`,
  );
}
