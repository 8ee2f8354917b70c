/**
 * An agent built with the real 0.3 SDK (@a2a-js/sdk 0.3.14, installed as `a2a-sdk-03`): its
 * DefaultRequestHandler, an AgentExecutor and its Express handlers, served in-process on
 * 127.0.0.1 with a pure 0.3 card (`url`, `preferredTransport: JSONRPC`, `additionalInterfaces`);
 * with `{ grpc: true }` also its gRPC service (`a2a-sdk-03/server/grpc`, `a2a.v1.A2AService`) on
 * a port of its own, listed as a third interface (transport GRPC, url `host:port`).
 * Behaviour by the text of the user message:
 * - `message`: a bare Message reply;
 * - `ask`: INPUT_REQUIRED with {@link QUESTION}; the next message on the task completes it with
 *   the artifact `thanks, <answer>`;
 * - `slow`: WORKING until canceled;
 * - anything else: WORKING, artifact `echo: <text>`, COMPLETED.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard, Message, TaskState } from 'a2a-sdk-03';
import {
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from 'a2a-sdk-03/server';
import {
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
  UserBuilder,
} from 'a2a-sdk-03/server/express';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import {
  A2AService as Sdk03GrpcService,
  grpcService,
  UserBuilder as GrpcUserBuilder,
} from 'a2a-sdk-03/server/grpc';
import express from 'express';
import { QUESTION } from './helpers.js';

const text = (m: Message) => m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');

class Executor implements AgentExecutor {
  private readonly running = new Map<string, () => void>();

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage, task } = ctx;
    const words = text(userMessage);
    const agentMessage = (t: string): Message => ({
      kind: 'message',
      messageId: randomUUID(),
      role: 'agent',
      parts: [{ kind: 'text', text: t }],
      taskId,
      contextId,
    });
    const status = (state: TaskState, final: boolean, message?: Message) =>
      bus.publish({
        kind: 'status-update',
        taskId,
        contextId,
        status: { state, timestamp: new Date().toISOString(), ...(message ? { message } : {}) },
        final,
      });
    if (words === 'message' && task === undefined) {
      bus.publish(agentMessage(`echo: ${words}`));
      bus.finished();
      return;
    }
    if (task === undefined) {
      bus.publish({
        kind: 'task',
        id: taskId,
        contextId,
        status: { state: 'submitted', timestamp: new Date().toISOString() },
        history: [userMessage],
      });
    }
    const artifact = (t: string) =>
      bus.publish({
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact: { artifactId: randomUUID(), parts: [{ kind: 'text', text: t }] },
      });
    if (task?.status.state === 'input-required') {
      artifact(`thanks, ${words}`);
      status('completed', true);
    } else if (words === 'ask') {
      status('input-required', true, agentMessage(QUESTION));
    } else if (words === 'slow') {
      status('working', false);
      await new Promise<void>((resolve) => {
        this.running.set(taskId, resolve);
        setTimeout(resolve, 10_000).unref();
      });
      status('canceled', true);
    } else {
      status('working', false);
      artifact(`echo: ${words}`);
      status('completed', true);
    }
    bus.finished();
  };

  cancelTask = async (taskId: string): Promise<void> => {
    this.running.get(taskId)?.();
    this.running.delete(taskId);
  };
}

/** A running 0.3 server. */
export interface Sdk03Server {
  readonly url: string;
  /** `host:port` of its gRPC service (with `{ grpc: true }`). */
  readonly grpcUrl?: string | undefined;
  close(): Promise<void>;
}

/** Starts the 0.3 SDK server on 127.0.0.1, any free port. */
export async function startSdk03Server(options: { grpc?: boolean } = {}): Promise<Sdk03Server> {
  const grpc = options.grpc ? new Server() : undefined;
  const grpcUrl = grpc
    ? `127.0.0.1:${await new Promise<number>((resolve, reject) => {
        grpc.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) =>
          error ? reject(error) : resolve(port),
        );
      })}`
    : undefined;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    protocolVersion: '0.3.0',
    name: 'a2a-sdk-03 agent',
    description: 'A 0.3 agent',
    version: '1.0.0',
    url: `${origin}/a2a/jsonrpc`,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, transport: 'JSONRPC' },
      { url: `${origin}/a2a/rest`, transport: 'HTTP+JSON' },
      ...(grpcUrl ? [{ url: grpcUrl, transport: 'GRPC' }] : []),
    ],
    capabilities: { streaming: true, pushNotifications: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echo', tags: ['demo'] }],
  };
  const requestHandler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new Executor(),
    undefined,
    new InMemoryPushNotificationStore(),
  );
  const userBuilder = UserBuilder.noAuthentication;
  const app = express();
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder }));
  app.use('/a2a/rest', restHandler({ requestHandler, userBuilder }));
  server.on('request', app);
  grpc?.addService(
    Sdk03GrpcService,
    grpcService({ requestHandler, userBuilder: GrpcUserBuilder.noAuthentication }),
  );
  return {
    url: origin,
    grpcUrl,
    close: async () => {
      grpc?.forceShutdown();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
