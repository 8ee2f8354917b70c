/**
 * The mapping tables of the bridge, in one place (docs/mcp.md prints them): A2A task states to
 * MCP task statuses (MCP 2025-11-25 tasks: working / input_required / completed / failed /
 * cancelled) and back, and A2A error codes to MCP (JSON-RPC) error codes.
 */
import type { A2AErrorCode } from '../core/errors.js';
import type { TaskState } from '../core/schemas/index.js';

/** An MCP task status (MCP spec 2025-11-25, "Tasks"). */
export type McpTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A2A TaskState (spec §4.1.3) → MCP task status. */
export const MCP_STATUS_OF: Readonly<Record<TaskState, McpTaskStatus>> = {
  TASK_STATE_SUBMITTED: 'working',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_INPUT_REQUIRED: 'input_required',
  TASK_STATE_AUTH_REQUIRED: 'input_required',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_REJECTED: 'failed',
  TASK_STATE_CANCELED: 'cancelled',
};

/** JSON-RPC codes MCP uses (MCP spec, "Error handling"). */
export const MCP_INVALID_PARAMS = -32602;
export const MCP_INTERNAL_ERROR = -32603;
export const MCP_INVALID_REQUEST = -32600;

/**
 * A2A error → MCP error code, for the MCP protocol methods (`tasks/get`, `tasks/result`,
 * `tasks/cancel`, `tasks/list`). Inside a tool call an A2A error is a tool result with
 * `isError: true` instead, so the model reads it (MCP spec: tool errors are results).
 */
export function mcpCodeOf(code: A2AErrorCode): number {
  if (INVALID_PARAMS_CODES.has(code)) return MCP_INVALID_PARAMS;
  return code === 'INVALID_REQUEST' ? MCP_INVALID_REQUEST : MCP_INTERNAL_ERROR;
}

/** The A2A codes that say the caller's parameters are wrong (MCP -32602). */
const INVALID_PARAMS_CODES: ReadonlySet<A2AErrorCode> = new Set<A2AErrorCode>([
  'TASK_NOT_FOUND',
  'TASK_NOT_CANCELABLE',
  'INVALID_PARAMS',
  'CONTENT_TYPE_NOT_SUPPORTED',
  'UNSUPPORTED_OPERATION',
]);
