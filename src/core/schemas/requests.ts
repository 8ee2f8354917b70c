/** Request and response messages of the 11 operations (spec §3.1, proto `A2AService`). */
import { z } from 'zod';
import { Message } from './message.js';
import {
  oneof,
  id,
  int32,
  int64,
  message,
  pageToken,
  requiredId,
  struct,
  timestamp,
} from './proto-json.js';
import { TaskPushNotificationConfig } from './push.js';
import { Task, TaskState } from './task.js';

const historyLength = int32.pipe(z.number().min(0, 'must not be negative'));
/** A task generation (A2A 1.1 draft, spec dev-1.1 §3.2.7): 1 and up; 0 means "unknown". */
const generation = int64.pipe(z.number().min(0, 'must not be negative'));
const tenant = id.optional();

export const SendMessageConfiguration = message({
  acceptedOutputModes: z.array(z.string()).optional(),
  taskPushNotificationConfig: TaskPushNotificationConfig.optional(),
  historyLength: historyLength.optional(),
  returnImmediately: z.boolean().optional(),
  /**
   * A2A 1.1 draft (spec dev-1.1 §3.2.2): refuse the message with TASK_GENERATION_MISMATCH unless
   * the task's generation is this value (servers with `generations: true`; ignored for a new task).
   */
  ifGenerationMatch: generation.optional(),
});
export type SendMessageConfiguration = z.infer<typeof SendMessageConfiguration>;

/**
 * The message a client sends: a `ROLE_USER` one (proto `Role`: USER is communication from the
 * client to the server, AGENT from the server to the client), so a client cannot put words in
 * the agent's mouth in a task's history.
 */
const UserMessage = Message.superRefine((m, ctx) => {
  if (m.role !== 'ROLE_USER') {
    ctx.addIssue({
      code: 'custom',
      path: ['role'],
      message: "must be ROLE_USER: a client sends user messages (ROLE_AGENT is the agent's)",
    });
  }
});

export const SendMessageRequest = message({
  tenant,
  message: UserMessage,
  configuration: SendMessageConfiguration.optional(),
  metadata: struct.optional(),
});
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

/** `{task}` or `{message}` (proto oneof `payload`). */
export const SendMessageResponse = message({
  task: Task.optional(),
  message: Message.optional(),
}).apply(oneof(['task', 'message'], 'payload'));
export type SendMessageResponse = { task: Task } | { message: Message };

export const GetTaskRequest = message({
  tenant,
  id: requiredId,
  historyLength: historyLength.optional(),
  /**
   * A2A 1.1 draft long-poll (spec dev-1.1 §3.2.7): a server SHOULD hold the call until the task's
   * generation passes this value and MAY answer earlier. Accepted; this server answers at once.
   */
  currentGeneration: generation.optional(),
});
export type GetTaskRequest = z.infer<typeof GetTaskRequest>;

export const ListTasksRequest = message({
  tenant,
  contextId: id.optional(),
  status: TaskState.optional(),
  pageSize: int32.pipe(z.number().min(1).max(100, 'must be between 1 and 100')).optional(),
  pageToken: pageToken.optional(),
  historyLength: historyLength.optional(),
  statusTimestampAfter: timestamp.optional(),
  includeArtifacts: z.boolean().optional(),
});
export type ListTasksRequest = z.infer<typeof ListTasksRequest>;

export const ListTasksResponse = message({
  tasks: z.array(Task),
  nextPageToken: z.string(),
  pageSize: int32,
  totalSize: int32,
});
export type ListTasksResponse = z.infer<typeof ListTasksResponse>;

export const CancelTaskRequest = message({
  tenant,
  id: requiredId,
  metadata: struct.optional(),
});
export type CancelTaskRequest = z.infer<typeof CancelTaskRequest>;

export const SubscribeToTaskRequest = message({ tenant, id: requiredId });
export type SubscribeToTaskRequest = z.infer<typeof SubscribeToTaskRequest>;

export const CreateTaskPushNotificationConfigRequest = TaskPushNotificationConfig;

export const GetTaskPushNotificationConfigRequest = message({
  tenant,
  taskId: requiredId,
  id: requiredId,
});
export type GetTaskPushNotificationConfigRequest = z.infer<
  typeof GetTaskPushNotificationConfigRequest
>;

export const DeleteTaskPushNotificationConfigRequest = GetTaskPushNotificationConfigRequest;
export type DeleteTaskPushNotificationConfigRequest = GetTaskPushNotificationConfigRequest;

export const ListTaskPushNotificationConfigsRequest = message({
  tenant,
  taskId: requiredId,
  pageSize: int32.pipe(z.number().min(0)).optional(),
  pageToken: pageToken.optional(),
});
export type ListTaskPushNotificationConfigsRequest = z.infer<
  typeof ListTaskPushNotificationConfigsRequest
>;

export const ListTaskPushNotificationConfigsResponse = message({
  configs: z.array(TaskPushNotificationConfig).optional(),
  nextPageToken: z.string().optional(),
});
export type ListTaskPushNotificationConfigsResponse = z.infer<
  typeof ListTaskPushNotificationConfigsResponse
>;

export const GetExtendedAgentCardRequest = message({ tenant });
export type GetExtendedAgentCardRequest = z.infer<typeof GetExtendedAgentCardRequest>;

/** google.protobuf.Empty: `{}` (JSON-RPC peers also send `null`; accept both). */
export const Empty = z.preprocess((v) => v ?? {}, message({}));
export type Empty = Record<string, never>;
