/** Task, TaskStatus, Artifact and the streaming events (spec §4.1, proto `Task`, `StreamResponse`). */
import { z } from 'zod';
import { Message } from './message.js';
import { Part } from './part.js';
import {
  int64,
  oneof,
  id,
  message,
  protoEnum,
  requiredId,
  struct,
  timestamp,
} from './proto-json.js';

/**
 * A2A 1.1 draft `generation` (spec dev-1.1 §3.2.7): 1 at creation, +1 per state transition or
 * artifact change, each one event. Only servers with `generations: true` set it; 0 or absent
 * means the server does not implement it.
 */
const generation = int64.pipe(z.number().min(0, 'must not be negative')).optional();

/** TaskState values in proto number order (1..8); `TASK_STATE_UNSPECIFIED` is never real data. */
export const TASK_STATES = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;
export const TaskState = protoEnum('TASK_STATE_UNSPECIFIED', TASK_STATES);
export type TaskState = z.infer<typeof TaskState>;

export const TaskStatus = message({
  state: TaskState,
  message: Message.optional(),
  timestamp: timestamp.optional(),
});
export type TaskStatus = z.infer<typeof TaskStatus>;

export const Artifact = message({
  artifactId: requiredId,
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(Part).min(1, 'must contain at least one part'),
  metadata: struct.optional(),
  extensions: z.array(z.string()).optional(),
});
export type Artifact = z.infer<typeof Artifact>;

export const Task = message({
  id: requiredId,
  contextId: id.optional(),
  status: TaskStatus,
  artifacts: z.array(Artifact).optional(),
  history: z.array(Message).optional(),
  metadata: struct.optional(),
  generation,
});
export type Task = z.infer<typeof Task>;

export const TaskStatusUpdateEvent = message({
  taskId: requiredId,
  contextId: requiredId,
  status: TaskStatus,
  metadata: struct.optional(),
  generation,
});
export type TaskStatusUpdateEvent = z.infer<typeof TaskStatusUpdateEvent>;

export const TaskArtifactUpdateEvent = message({
  taskId: requiredId,
  contextId: requiredId,
  artifact: Artifact,
  append: z.boolean().optional(),
  lastChunk: z.boolean().optional(),
  metadata: struct.optional(),
  generation,
});
export type TaskArtifactUpdateEvent = z.infer<typeof TaskArtifactUpdateEvent>;

/** One of `task`, `message`, `statusUpdate`, `artifactUpdate` (proto oneof `payload`). */
export const StreamResponse = message({
  task: Task.optional(),
  message: Message.optional(),
  statusUpdate: TaskStatusUpdateEvent.optional(),
  artifactUpdate: TaskArtifactUpdateEvent.optional(),
}).apply(oneof(['task', 'message', 'statusUpdate', 'artifactUpdate'], 'payload'));
/** The payload of every SSE event, gRPC stream item and push body, as a union of its members. */
export type StreamResponse =
  | { task: Task }
  | { message: Message }
  | { statusUpdate: TaskStatusUpdateEvent }
  | { artifactUpdate: TaskArtifactUpdateEvent };
