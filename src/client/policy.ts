/**
 * Client decisions that do not depend on a binding: which calls may be retried, which failures
 * mean "this interface cannot be reached", and which operations the card says are unavailable.
 */
import type { A2AErrorCode } from '../core/errors.js';
import type { OperationName } from '../core/operations.js';
import type { AgentCard } from '../core/schemas/index.js';
import { TransportError } from '../transport/errors.js';

/**
 * Operations safe to repeat: the reads, and SendMessage because the server de-duplicates on
 * `messageId` (spec §3.3.1) and every attempt sends the same message.
 */
export const SAFE_OPERATIONS: ReadonlySet<OperationName> = new Set<OperationName>([
  'SendMessage',
  'GetTask',
  'ListTasks',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'GetExtendedAgentCard',
]);

/** True when an interface could not be reached at all: connection failed, or a 5xx gateway answer. */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof TransportError)) return false;
  return error.code === 'NETWORK' || (error.code === 'BAD_STATUS' && (error.status ?? 0) >= 500);
}

/** Why the card rules out `operation` (spec §3.3.4, requirement (test/conformance/requirements.ts) [26]), or undefined when it allows it. */
export function unsupportedByCard(
  card: Pick<AgentCard, 'capabilities'>,
  operation: OperationName,
): { code: A2AErrorCode; message: string } | undefined {
  const caps = card.capabilities;
  switch (operation) {
    case 'SendStreamingMessage':
    case 'SubscribeToTask':
      return caps.streaming === true
        ? undefined
        : {
            code: 'UNSUPPORTED_OPERATION',
            message: `${operation}: the agent card does not declare capabilities.streaming`,
          };
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
    case 'ListTaskPushNotificationConfigs':
    case 'DeleteTaskPushNotificationConfig':
      return caps.pushNotifications === true
        ? undefined
        : {
            code: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
            message: `${operation}: the agent card does not declare capabilities.pushNotifications`,
          };
    case 'GetExtendedAgentCard':
      return caps.extendedAgentCard === true
        ? undefined
        : {
            code: 'UNSUPPORTED_OPERATION',
            message:
              'GetExtendedAgentCard: the agent card does not declare capabilities.extendedAgentCard',
          };
    case 'SendMessage':
    case 'GetTask':
    case 'ListTasks':
    case 'CancelTask':
      return undefined;
  }
}
