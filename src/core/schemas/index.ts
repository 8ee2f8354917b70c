/** Zod schemas for every A2A 1.0 object in its ProtoJSON wire shape. */
export {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentProvider,
  AgentSkill,
  OAuthFlows,
  SecurityRequirement,
  SecurityScheme,
} from './agent-card.js';
export { Message, Role } from './message.js';
export { Part } from './part.js';
export { camelCase, timestamp } from './proto-json.js';
export { AuthenticationInfo, TaskPushNotificationConfig } from './push.js';
export {
  CancelTaskRequest,
  CreateTaskPushNotificationConfigRequest,
  DeleteTaskPushNotificationConfigRequest,
  Empty,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageConfiguration,
  SendMessageRequest,
  SendMessageResponse,
  SubscribeToTaskRequest,
} from './requests.js';
export {
  Artifact,
  StreamResponse,
  Task,
  TASK_STATES,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from './task.js';
