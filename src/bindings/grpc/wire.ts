/**
 * Wire facts of the gRPC binding (spec §10), written once: service and metadata names, the gRPC
 * status codes of the error catalog, and the REQUIRED fields of the proto messages.
 */
import type { A2AErrorCode, GrpcStatusName } from '../../core/errors.js';
import type { OperationName } from '../../core/operations.js';

/** The proto package of A2A 1.0. */
export const PROTO_PACKAGE = 'lf.a2a.v1';
/** The fully qualified service name. */
export const SERVICE_NAME = `${PROTO_PACKAGE}.A2AService`;
/** The `protocolBinding` string of gRPC interfaces in agent cards. */
export const GRPC_BINDING = 'GRPC';

/** The request and response message of each rpc; the rpc names are the spec operation names. */
// prettier-ignore
export const RPC_TYPES: Readonly<Record<OperationName, { request: string; response: string }>> = {
  SendMessage: { request: 'SendMessageRequest', response: 'SendMessageResponse' },
  SendStreamingMessage: { request: 'SendMessageRequest', response: 'StreamResponse' },
  GetTask: { request: 'GetTaskRequest', response: 'Task' },
  ListTasks: { request: 'ListTasksRequest', response: 'ListTasksResponse' },
  CancelTask: { request: 'CancelTaskRequest', response: 'Task' },
  SubscribeToTask: { request: 'SubscribeToTaskRequest', response: 'StreamResponse' },
  CreateTaskPushNotificationConfig: { request: 'TaskPushNotificationConfig', response: 'TaskPushNotificationConfig' },
  GetTaskPushNotificationConfig: { request: 'GetTaskPushNotificationConfigRequest', response: 'TaskPushNotificationConfig' },
  ListTaskPushNotificationConfigs: { request: 'ListTaskPushNotificationConfigsRequest', response: 'ListTaskPushNotificationConfigsResponse' },
  DeleteTaskPushNotificationConfig: { request: 'DeleteTaskPushNotificationConfigRequest', response: 'google.protobuf.Empty' },
  GetExtendedAgentCard: { request: 'GetExtendedAgentCardRequest', response: 'AgentCard' },
};

/** Metadata keys of the service parameters (spec §3.2.6: lower-case in gRPC). */
export const VERSION_KEY = 'a2a-version';
/** Comma-separated extension URIs, requested by the client and echoed as activated. */
export const EXTENSIONS_KEY = 'a2a-extensions';
/**
 * Request metadata of a reconnecting SubscribeToTask: the id of the last event the client saw
 * (the gRPC equivalent of SSE `Last-Event-ID`, spec §3.1.6; forms in core/event-cursor.ts).
 */
export const LAST_EVENT_ID_KEY = 'last-event-id';
/**
 * Initial metadata of a task stream: the id of its first event. Event k (from 0) of the stream
 * has the id `advanceEventCursor(first, k)` (core/event-cursor.ts).
 */
export const FIRST_EVENT_ID_KEY = 'a2a-first-event-id';
/** The trailer carrying a serialized google.rpc.Status (spec §10.6). */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';

/** `@type` URLs of the error details a2a-kit sends and reads. */
export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
/** `@type` of google.rpc.BadRequest. */
export const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

/** Numeric gRPC status codes (google.rpc.Code). */
export const GRPC_STATUS = {
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

/** The status of each catalog mapping: a new status name does not compile until it is listed. */
export const STATUS_OF: Readonly<Record<GrpcStatusName, number>> = GRPC_STATUS;

/**
 * What a client concludes from a status that came without an A2A ErrorInfo: the A2A code for the
 * statuses the catalog uses, else the HTTP status that google.rpc.Code maps to (so the client's
 * retry policy treats gRPC like HTTP). CANCELLED, DEADLINE_EXCEEDED and UNAVAILABLE are local
 * transport failures and handled before this table.
 */
export const FALLBACK_BY_STATUS: ReadonlyMap<
  number,
  { code: A2AErrorCode } | { httpStatus: number }
> = new Map<number, { code: A2AErrorCode } | { httpStatus: number }>([
  [GRPC_STATUS.INVALID_ARGUMENT, { code: 'INVALID_PARAMS' }],
  [GRPC_STATUS.NOT_FOUND, { code: 'TASK_NOT_FOUND' }],
  [GRPC_STATUS.FAILED_PRECONDITION, { code: 'UNSUPPORTED_OPERATION' }],
  [GRPC_STATUS.UNIMPLEMENTED, { code: 'METHOD_NOT_FOUND' }],
  [GRPC_STATUS.INTERNAL, { code: 'INTERNAL' }],
  [GRPC_STATUS.UNKNOWN, { httpStatus: 500 }],
  [GRPC_STATUS.ALREADY_EXISTS, { httpStatus: 409 }],
  [GRPC_STATUS.PERMISSION_DENIED, { httpStatus: 403 }],
  [GRPC_STATUS.RESOURCE_EXHAUSTED, { httpStatus: 429 }],
  [GRPC_STATUS.ABORTED, { httpStatus: 409 }],
  [GRPC_STATUS.OUT_OF_RANGE, { httpStatus: 400 }],
  [GRPC_STATUS.DATA_LOSS, { httpStatus: 500 }],
  [GRPC_STATUS.UNAUTHENTICATED, { httpStatus: 401 }],
]);

/** The name of a numeric status, for messages. */
export function statusName(code: number): string {
  for (const [name, value] of Object.entries(GRPC_STATUS)) if (value === code) return name;
  return `status ${code}`;
}

/**
 * Fields the spec marks REQUIRED (`field_behavior`), by message, as proto-loader camelCase keys.
 * A decoded message lacking one gets the proto default, so validation names the field ("is
 * required", "must contain at least one part") and ListTasksResponse always has its page fields
 * (spec override of the ProtoJSON default rule).
 */
export const REQUIRED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Message: ['messageId', 'role', 'parts'],
  Artifact: ['artifactId', 'parts'],
  TaskStatus: ['state'],
  Task: ['id', 'status'],
  TaskStatusUpdateEvent: ['taskId', 'contextId', 'status'],
  TaskArtifactUpdateEvent: ['taskId', 'contextId', 'artifact'],
  AuthenticationInfo: ['scheme'],
  TaskPushNotificationConfig: ['url'],
  AgentInterface: ['url', 'protocolBinding', 'protocolVersion'],
  AgentCard: [
    'name',
    'description',
    'supportedInterfaces',
    'version',
    'capabilities',
    'defaultInputModes',
    'defaultOutputModes',
    'skills',
  ],
  AgentProvider: ['url', 'organization'],
  AgentSkill: ['id', 'name', 'description', 'tags'],
  AgentCardSignature: ['protected', 'signature'],
  APIKeySecurityScheme: ['location', 'name'],
  HTTPAuthSecurityScheme: ['scheme'],
  OAuth2SecurityScheme: ['flows'],
  OpenIdConnectSecurityScheme: ['openIdConnectUrl'],
  AuthorizationCodeOAuthFlow: ['authorizationUrl', 'tokenUrl', 'scopes'],
  ClientCredentialsOAuthFlow: ['tokenUrl', 'scopes'],
  DeviceCodeOAuthFlow: ['deviceAuthorizationUrl', 'tokenUrl', 'scopes'],
  SendMessageRequest: ['message'],
  GetTaskRequest: ['id'],
  ListTasksResponse: ['tasks', 'nextPageToken', 'pageSize', 'totalSize'],
  CancelTaskRequest: ['id'],
  GetTaskPushNotificationConfigRequest: ['taskId', 'id'],
  DeleteTaskPushNotificationConfigRequest: ['taskId', 'id'],
  SubscribeToTaskRequest: ['id'],
  ListTaskPushNotificationConfigsRequest: ['taskId'],
};
