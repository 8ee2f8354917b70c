/** `a2a-kit`: the protocol core — types, schemas, errors, part helpers (runtime-neutral). */
export * as schemas from './core/schemas/index.js';
export type {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentProvider,
  AgentSkill,
  SecurityRequirement,
  SecurityScheme,
} from './core/schemas/agent-card.js';
export type { Message, Role } from './core/schemas/message.js';
export type { Part } from './core/schemas/part.js';
export type { AuthenticationInfo, TaskPushNotificationConfig } from './core/schemas/push.js';
export type {
  CancelTaskRequest,
  GetTaskRequest,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageConfiguration,
  SendMessageRequest,
  SendMessageResponse,
  SubscribeToTaskRequest,
} from './core/schemas/requests.js';
export type {
  Artifact,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from './core/schemas/task.js';
export { A2AError, ERROR_BOUNDS, ERROR_CATALOG, isA2AError } from './core/errors.js';
export { MAX_ID_LENGTH, MAX_PAGE_TOKEN_LENGTH } from './core/schemas/proto-json.js';
export type { A2AErrorCode, FieldViolation } from './core/errors.js';
export { MissingDependencyError, type MissingDependency } from './core/missing-dependency.js';
export { OPERATIONS, isOperationName } from './core/operations.js';
export type { OperationName } from './core/operations.js';
export {
  INTERRUPTED_STATES,
  TERMINAL_STATES,
  canTransition,
  isInterrupted,
  isSettled,
  isTerminal,
} from './core/task-state.js';
export {
  BINDINGS,
  PROTOCOL_VERSION,
  selectInterface,
  selectInterfaces,
} from './core/interfaces.js';
export type { ProtocolBinding } from './core/interfaces.js';
export { newId } from './core/ids.js';
export {
  agentMessage,
  createMessage,
  dataOf,
  dataPart,
  fileUrlPart,
  rawPart,
  textOf,
  textPart,
  userMessage,
} from './core/parts.js';
