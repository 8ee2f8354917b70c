/**
 * An agent built with @a2a-js/sdk 1.3.0 (their public server API: DefaultRequestHandler, an
 * AgentExecutor, the Express handlers), served in-process on 127.0.0.1 for our client to call.
 * It works on their ts-proto objects (numeric enums, `{ $case, value }` parts).
 *
 * Behaviour, by the text of the user message (same words as {@link ./our-agent.ts}):
 * - `message`: a bare Message reply, no task;
 * - `ask`: WORKING, then INPUT_REQUIRED with the question {@link QUESTION}; the next message on
 *   that task completes it with the artifact `thanks, <answer>`;
 * - `ask quietly`: the same, but the executor's cancelTask ignores the task (a naive executor);
 * - `gate <key>`: WORKING until the test calls `release(key)`, then artifact `released <key>`;
 * - `slow`: WORKING until canceled (CANCELED) or 10 s have passed;
 * - `chunks`: one artifact in three chunks (`one `, `two `, `three`, append after the first);
 * - `fail`: the executor throws (their handler records FAILED);
 * - `badstream`: publishes a second `task` event, which their handler refuses mid-stream;
 * - anything else: WORKING, artifact `echo: <text>`, COMPLETED.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  AGENT_CARD_PATH,
  AgentCard,
  Role,
  TaskState,
  type Message,
  type Part,
  type Task,
} from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import {
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
  UserBuilder,
} from '@a2a-js/sdk/server/express';
import { Gates, QUESTION } from './helpers.js';

/** The paths their handlers are mounted on, under the server's origin. */
export const JSONRPC_PATH = '/a2a/jsonrpc';
export const REST_PATH = '/a2a/rest';
/** The card with a security scheme, served by their card handler as they do by default. */
export const SCHEMES_BASE = '/with-schemes';
/** The same card served through their `AgentCard.toJSON` (the workaround: spec ProtoJSON). */
export const SCHEMES_JSON_BASE = '/with-schemes-json';

const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

/** The text of a message in their shape. */
export function textOfTheirs(message: Message | undefined): string {
  return (message?.parts ?? [])
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');
}

/** Resolves after `ms`, or at once (false) when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}

/** The executor: their rules are that every execute() starts with a `task` (or `message`) event. */
class InteropExecutor implements AgentExecutor {
  readonly gates = new Gates();
  /** Running executions by task id, to stop them on cancel. */
  private readonly running = new Map<string, AbortController>();
  /** Context ids of tasks parked in INPUT_REQUIRED (no execution runs for them). */
  private readonly parked = new Map<string, string>();

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage, task: existing } = ctx;
    const text = textOfTheirs(userMessage).trim();
    const agentMessage = (words: string): Message => ({
      messageId: randomUUID(),
      role: Role.ROLE_AGENT,
      parts: [textPart(words)],
      taskId,
      contextId,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    });
    const status = (state: TaskState, words?: string) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          metadata: undefined,
          status: {
            state,
            message: words === undefined ? undefined : agentMessage(words),
            timestamp: new Date().toISOString(),
          },
        }),
      );
    const artifact = (words: string, options: { id?: string; append?: boolean; last?: boolean }) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          append: options.append ?? false,
          lastChunk: options.last ?? true,
          metadata: undefined,
          artifact: {
            artifactId: options.id ?? randomUUID(),
            name: 'result',
            description: '',
            parts: [textPart(words)],
            metadata: undefined,
            extensions: [],
          },
        }),
      );

    if (!existing && text === 'message') {
      const reply = agentMessage(`echo: ${text}`);
      bus.publish(AgentEvent.message({ ...reply, taskId: '' }));
      return;
    }
    const first: Task = existing ?? {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
      artifacts: [],
      history: [userMessage],
      metadata: undefined,
    };
    bus.publish(AgentEvent.task(first));

    if (existing?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      this.parked.delete(taskId);
      status(TaskState.TASK_STATE_WORKING);
      artifact(`thanks, ${text}`, {});
      status(TaskState.TASK_STATE_COMPLETED);
      return;
    }
    status(TaskState.TASK_STATE_WORKING);
    if (text === 'fail') throw new Error('failing on purpose');
    if (text === 'badstream') {
      bus.publish(AgentEvent.task(first));
      return status(TaskState.TASK_STATE_COMPLETED);
    }
    if (text === 'ask' || text === 'ask quietly') {
      if (text === 'ask') this.parked.set(taskId, contextId);
      status(TaskState.TASK_STATE_INPUT_REQUIRED, QUESTION);
      return;
    }
    const controller = new AbortController();
    this.running.set(taskId, controller);
    try {
      if (text.startsWith('gate ')) {
        const key = text.slice('gate '.length);
        if (!(await this.gates.wait(key, controller.signal))) {
          return status(TaskState.TASK_STATE_CANCELED, 'canceled');
        }
        artifact(`released ${key}`, {});
      } else if (text === 'slow') {
        if (!(await sleep(10_000, controller.signal))) {
          return status(TaskState.TASK_STATE_CANCELED, 'canceled');
        }
        artifact('slow done', {});
      } else if (text === 'chunks') {
        const id = randomUUID();
        artifact('one ', { id, last: false });
        artifact('two ', { id, append: true, last: false });
        artifact('three', { id, append: true, last: true });
      } else {
        artifact(`echo: ${text}`, {});
      }
      status(TaskState.TASK_STATE_COMPLETED);
    } finally {
      this.running.delete(taskId);
    }
  };

  // Their handler waits, after calling this, for a terminal event on the task's bus: a running
  // execution publishes CANCELED when it stops; for a parked task nothing runs, so publish here
  // (or CancelTask never answers, as for `ask quietly`, which is not tracked).
  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const running = this.running.get(taskId);
    if (running) return running.abort();
    const contextId = this.parked.get(taskId);
    if (contextId === undefined) return;
    this.parked.delete(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        metadata: undefined,
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
      }),
    );
  };
}

/** The card in spec JSON; `withSchemes` adds a bearer scheme (served in their internal form). */
export function theirCardJson(
  origin: string,
  withSchemes = false,
  legacy = false,
): Record<string, unknown> {
  const v03 = legacy
    ? [
        { url: `${origin}${JSONRPC_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { url: `${origin}${REST_PATH}`, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      ]
    : [];
  return {
    name: 'a2a-js interop agent',
    description: 'An @a2a-js/sdk 1.3.0 agent for a2a-kit interop tests',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}${JSONRPC_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}${REST_PATH}`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ...v03,
    ],
    provider: { organization: 'a2a-kit', url: 'https://example.com' },
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes text', tags: ['interop'] }],
    ...(withSchemes
      ? {
          securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
          securityRequirements: [{ schemes: { bearer: { list: [] } } }],
        }
      : {}),
  };
}

/** A running @a2a-js/sdk server. */
export interface TheirServer {
  /** The origin, e.g. `http://127.0.0.1:PORT`; the card is at the well-known path under it. */
  readonly url: string;
  /** Lets a `gate <key>` task finish. */
  release(key: string): void;
  close(): Promise<void>;
}

/**
 * Starts their server on 127.0.0.1, any free port; `legacyCompat` also serves 0.3 (their
 * `legacyCompat: { enabled: true }`, with 0.3 entries in the card).
 */
export async function startTheirServer(legacyCompat = false): Promise<TheirServer> {
  // The card names the listening port: listen first, then build the card, handler and app.
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const executor = new InteropExecutor();
  const requestHandler = new DefaultRequestHandler(
    AgentCard.fromJSON(theirCardJson(origin, false, legacyCompat)),
    new InMemoryTaskStore(),
    executor,
  );
  const userBuilder = UserBuilder.noAuthentication;
  const app = express();
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use(
    `${SCHEMES_BASE}/${AGENT_CARD_PATH}`,
    agentCardHandler({
      agentCardProvider: async () => AgentCard.fromJSON(theirCardJson(origin, true)),
    }),
  );
  app.use(
    `${SCHEMES_JSON_BASE}/${AGENT_CARD_PATH}`,
    agentCardHandler({
      // Typed as an AgentCard provider; the handler serialises whatever it is given.
      agentCardProvider: async () =>
        AgentCard.toJSON(AgentCard.fromJSON(theirCardJson(origin, true))) as AgentCard,
    }),
  );
  const compat = legacyCompat ? { legacyCompat: { enabled: true } } : {};
  app.use(JSONRPC_PATH, jsonRpcHandler({ requestHandler, userBuilder, ...compat }));
  app.use(REST_PATH, restHandler({ requestHandler, userBuilder, ...compat }));
  server.on('request', app);
  return {
    url: origin,
    release: (key) => executor.gates.open(key),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
