/** Small valid A2A objects for client tests. */
import type {
  AgentCard,
  AgentInterface,
  StreamResponse,
  Task,
  TaskState,
} from '../../src/core/schemas/index.js';

/** A valid 1.0 card with the given interfaces and capabilities. */
export function card(
  interfaces: AgentInterface[],
  capabilities: AgentCard['capabilities'] = { streaming: true },
): AgentCard {
  return {
    name: 'Test agent',
    description: 'For tests',
    version: '1.0.0',
    supportedInterfaces: interfaces,
    capabilities,
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'skill', tags: ['t'] }],
  };
}

/** A task in `state`. */
export function task(id = 't1', state: TaskState = 'TASK_STATE_WORKING'): Task {
  return { id, contextId: 'c1', status: { state, timestamp: '2025-01-01T00:00:00.000Z' } };
}

/** A status update event. */
export function statusUpdate(state: TaskState, taskId = 't1'): StreamResponse {
  return { statusUpdate: { taskId, contextId: 'c1', status: { state } } };
}

/** An artifact chunk event. */
export function artifactChunk(text: string, append = true, taskId = 't1'): StreamResponse {
  return {
    artifactUpdate: {
      taskId,
      contextId: 'c1',
      append,
      artifact: { artifactId: 'a1', parts: [{ text }] },
    },
  };
}
