/** `a2a-kit/server`: define an agent and serve the A2A operations (runtime-neutral). */
export { createAgent } from './agent.js';
export type { Agent, AgentCardConfig, AgentEvent, ExecutionContext } from './agent.js';
export { A2AServer } from './a2a-server.js';
export type { A2AServerOptions, MemoryLimits, StreamItem } from './a2a-server.js';
export type { InterruptedOptions } from './interrupted.js';
export type { CallContext, Principal } from '../core/call-context.js';
export { isStreamingOperation, withMiddleware } from '../core/middleware.js';
export type { OperationMiddleware } from '../core/middleware.js';
export type { Refusal, RefusalListener } from '../core/refusal.js';
export type { Logger, LogLevel } from '../core/logger.js';
export { requestLog, type RequestLogFields } from './request-log.js';
export type { CompatVersion, SubscribeToTaskParams } from '../core/service.js';
export { TaskHandle } from './task-handle.js';
export type { ArtifactOptions, Content } from './task-handle.js';
export { MemoryTaskStore } from '../stores/memory/task-store.js';
export type { MemoryTaskStoreOptions } from '../stores/memory/task-store.js';
export { MemoryEventBus } from '../stores/memory/event-bus.js';
export { ConcurrencyError, StorageError } from '../stores/types.js';
export type {
  EventBus,
  LogEntry,
  Scope,
  TaskQuery,
  TaskRecord,
  TaskStore,
  TaskPage,
} from '../stores/types.js';
export {
  agentMessage,
  dataOf,
  dataPart,
  fileUrlPart,
  rawPart,
  textOf,
  textPart,
  userMessage,
} from '../core/parts.js';
export { A2AError } from '../core/errors.js';
export type { AuditOptions } from './server-options.js';
export { AUDIT_EXTENSION, auditExtension, type AuditTrail } from './audit.js';
export {
  TRAJECTORY_EXTENSION,
  partSteps,
  trajectoryExtension,
  withoutTrajectory,
} from '../core/trajectory.js';
export type { StepInput, TrajectoryStep } from '../core/trajectory.js';
