/**
 * THE operation table: the 11 A2A operations by their spec names, with request and response
 * schemas. It types the server, the client and every binding, so names cannot drift.
 */
import type { z } from 'zod';
import {
  AgentCard,
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
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from './schemas/index.js';

// prettier-ignore
export const OPERATIONS = {
  SendMessage: { method: 'sendMessage', params: SendMessageRequest, result: SendMessageResponse, streaming: false },
  SendStreamingMessage: { method: 'sendStreamingMessage', params: SendMessageRequest, result: StreamResponse, streaming: true },
  GetTask: { method: 'getTask', params: GetTaskRequest, result: Task, streaming: false },
  ListTasks: { method: 'listTasks', params: ListTasksRequest, result: ListTasksResponse, streaming: false },
  CancelTask: { method: 'cancelTask', params: CancelTaskRequest, result: Task, streaming: false },
  SubscribeToTask: { method: 'subscribeToTask', params: SubscribeToTaskRequest, result: StreamResponse, streaming: true },
  CreateTaskPushNotificationConfig: { method: 'createTaskPushNotificationConfig', params: CreateTaskPushNotificationConfigRequest, result: TaskPushNotificationConfig, streaming: false },
  GetTaskPushNotificationConfig: { method: 'getTaskPushNotificationConfig', params: GetTaskPushNotificationConfigRequest, result: TaskPushNotificationConfig, streaming: false },
  ListTaskPushNotificationConfigs: { method: 'listTaskPushNotificationConfigs', params: ListTaskPushNotificationConfigsRequest, result: ListTaskPushNotificationConfigsResponse, streaming: false },
  DeleteTaskPushNotificationConfig: { method: 'deleteTaskPushNotificationConfig', params: DeleteTaskPushNotificationConfigRequest, result: Empty, streaming: false },
  GetExtendedAgentCard: { method: 'getExtendedAgentCard', params: GetExtendedAgentCardRequest, result: AgentCard, streaming: false },
} as const;

/** A spec operation name (`SendMessage`, …). */
export type OperationName = keyof typeof OPERATIONS;
/** The camel-cased method name of an operation (`sendMessage`, …). */
export type OperationMethod = (typeof OPERATIONS)[OperationName]['method'];
/** The validated request type of an operation. */
export type OperationParams<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['params']>;
/** The names of the streaming operations. */
export type StreamingOperationName = {
  [N in OperationName]: (typeof OPERATIONS)[N]['streaming'] extends true ? N : never;
}[OperationName];

/** True for a known operation name. */
export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(OPERATIONS, name);
}
