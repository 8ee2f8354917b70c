/**
 * The bench's echo agent built with @a2a-js/sdk 1.3 (the SDK's executor interface, ts-proto
 * shapes), doing exactly what the a2a-kit agent does (see modes.ts).
 */
import { randomUUID } from 'node:crypto';
import { TaskState, type AgentCard, type Part } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { CHUNK_TEXT, held, longTaskPause, parseMode } from './modes.js';

/** The SDK's card for the echo agent (URLs are placeholders: only the versions are read). */
export const a2ajsCard: AgentCard = {
  name: 'Bench echo',
  description: 'Echoes the text it receives',
  supportedInterfaces: [
    {
      url: 'http://127.0.0.1/a2a/jsonrpc',
      protocolBinding: 'JSONRPC',
      tenant: '',
      protocolVersion: '1.0',
    },
    {
      url: 'http://127.0.0.1/a2a/rest',
      protocolBinding: 'HTTP+JSON',
      tenant: '',
      protocolVersion: '1.0',
    },
  ],
  provider: undefined,
  version: '1.0.0',
  capabilities: {
    streaming: true,
    pushNotifications: false,
    extensions: [],
    extendedAgentCard: false,
  },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'echo',
      name: 'Echo',
      description: 'Echoes text',
      tags: ['bench'],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    },
  ],
  signatures: [],
};

function textPart(text: string): Part {
  return {
    content: { $case: 'text', value: text },
    metadata: undefined,
    filename: '',
    mediaType: '',
  };
}

/** The @a2a-js/sdk echo executor. */
export class A2ajsEcho implements AgentExecutor {
  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage } = ctx;
    const text = userMessage.parts
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join('');
    const mode = parseMode(text);
    const status = (state: TaskState) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state, message: undefined, timestamp: new Date().toISOString() },
          metadata: undefined,
        }),
      );
    const artifact = (artifactId: string, out: string, append: boolean, lastChunk: boolean) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          append,
          lastChunk,
          metadata: undefined,
          artifact: {
            artifactId,
            name: mode.kind === 'echo' ? 'echo' : '',
            description: '',
            parts: [textPart(out)],
            metadata: undefined,
            extensions: [],
          },
        }),
      );

    // The SDK requires a `task` event first.
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_SUBMITTED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        artifacts: [],
        history: [userMessage],
        metadata: undefined,
      }),
    );
    status(TaskState.TASK_STATE_WORKING);
    if (mode.kind === 'events') {
      await longTaskPause();
      const artifactId = randomUUID();
      for (let i = 0; i < mode.count; i++) {
        artifact(artifactId, CHUNK_TEXT, i > 0, i === mode.count - 1);
      }
    } else if (mode.kind === 'hold') {
      await held();
    } else {
      artifact(randomUUID(), `echo: ${text}`, false, true);
    }
    status(TaskState.TASK_STATE_COMPLETED);
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      }),
    );
  };
}
