/**
 * An A2A agent as an MCP server (`a2a-kit/mcp`): tools from the agent's card (tools.ts), tool
 * calls that run A2A tasks (drive-task.ts), and, for MCP clients with tasks (MCP 2025-11-25
 * "Tasks"), `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` answered from the A2A
 * task itself: the MCP task id is the A2A task id. One bridge serves many MCP sessions; each
 * session gets its own SDK `Server` from {@link A2AMcpBridge.server}.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Task as McpTask } from '@modelcontextprotocol/sdk/types.js';
import type { A2AClient } from '../client/client.js';
import { isA2AError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { dataPart, textPart } from '../core/parts.js';
import type { Message, Part, Task } from '../core/schemas/index.js';
import { askUser } from './ask-user.js';
import { viewData, viewText, type ViewArgs } from './artifact-viewers.js';
import { driveMessage, driveTask, type DriveHooks } from './drive-task.js';
import { MCP_STATUS_OF, mcpCodeOf, MCP_INVALID_PARAMS } from './mapping.js';
import { DEFAULT_INLINE_CHARS, messageResult, taskResult } from './render.js';
import { loadMcpSdk, type McpSdk } from './sdk.js';
import { bridgeTools, type BridgeTool, type BridgeToolOptions } from './tools.js';
import { inTraceOf, outgoingTrace } from './trace.js';

/** Options of {@link createA2AMcpBridge}. */
export interface A2AMcpBridgeOptions extends BridgeToolOptions {
  /** The agent, through a connected client (`A2AClient.connect(url)`, or in process). */
  client: A2AClient;
  /** Longest inline text of one artifact part in a tool result (default 4000 characters). */
  inlineChars?: number | undefined;
  /** The `pollInterval` MCP clients are told, and the bridge's own polling (default 250 ms). */
  pollIntervalMs?: number | undefined;
}

type Args = Record<string, unknown>;
type Extra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/** Builds the bridge; loads @modelcontextprotocol/sdk (MissingDependencyError without it). */
export async function createA2AMcpBridge(options: A2AMcpBridgeOptions): Promise<A2AMcpBridge> {
  return new A2AMcpBridge(await loadMcpSdk(), options);
}

/** An A2A agent offered as MCP tools; `server()` makes the SDK server of one MCP session. */
export class A2AMcpBridge {
  readonly tools: readonly BridgeTool[];
  private readonly client: A2AClient;
  private readonly inline: number;
  private readonly pollMs: number;
  /** Direct Message replies to task-mode calls, under the synthetic task id they were given. */
  private readonly replies = new Map<string, Message>();

  constructor(
    private readonly sdk: McpSdk,
    options: A2AMcpBridgeOptions,
  ) {
    this.client = options.client;
    this.tools = bridgeTools(options.client.card, options);
    this.inline = options.inlineChars ?? DEFAULT_INLINE_CHARS;
    this.pollMs = options.pollIntervalMs ?? 250;
  }

  /** A new MCP server (one per session) with the bridge's tools and task methods. */
  server(): Server {
    const { server: s, types: t } = this.sdk;
    const card = this.client.card;
    const server = new s.Server(
      { name: card.name, version: card.version, title: card.name },
      {
        capabilities: {
          tools: {},
          tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
        },
        instructions: `${card.description}\nTools named after skills send a message to this A2A agent; long work stays an A2A task (continue it with send_message and its taskId).`,
      },
    );
    server.setRequestHandler(t.ListToolsRequestSchema, () => ({
      tools: this.tools.map(({ skill: _skill, ...tool }) => tool),
    }));
    // Each request runs in the trace context of its `_meta` (trace.ts), the A2A calls it makes
    // included.
    server.setRequestHandler(t.CallToolRequestSchema, (request, extra) =>
      inTraceOf(request.params._meta, () => this.callTool(server, request.params, extra)),
    );
    server.setRequestHandler(t.GetTaskRequestSchema, (request) =>
      this.protocol(async () => this.mcpTask(await this.task(request.params.taskId)), request),
    );
    server.setRequestHandler(t.GetTaskPayloadRequestSchema, (request, extra) =>
      this.protocol(() => this.taskPayload(server, request.params.taskId, extra), request),
    );
    server.setRequestHandler(t.CancelTaskRequestSchema, (request) =>
      this.protocol(async () => {
        const id = request.params.taskId;
        if (this.replies.has(id)) {
          throw new t.McpError(MCP_INVALID_PARAMS, `Task ${id} is already completed`);
        }
        return this.mcpTask(await this.client.cancelTask({ id }));
      }, request),
    );
    server.setRequestHandler(t.ListTasksRequestSchema, (request) =>
      this.protocol(async () => {
        const cursor = request.params?.cursor;
        const page = await this.client.listTasks(cursor ? { pageToken: cursor } : {});
        return {
          tasks: page.tasks.map((task) => this.mcpTask(task)),
          ...(page.nextPageToken ? { nextCursor: page.nextPageToken } : {}),
        };
      }, request),
    );
    return server;
  }

  /** An A2A task as an MCP task (its id is the A2A task id). */
  mcpTask(task: Task): McpTask {
    const at = task.status.timestamp ?? new Date().toISOString();
    const said = task.status.message?.parts.find((p) => typeof p.text === 'string')?.text;
    return {
      taskId: task.id,
      status: MCP_STATUS_OF[task.status.state],
      ...(said !== undefined ? { statusMessage: said } : {}),
      createdAt: at,
      lastUpdatedAt: at,
      ttl: null,
      pollInterval: this.pollMs,
    };
  }

  private async task(id: string): Promise<Task> {
    const reply = this.replies.get(id);
    if (reply) {
      return { id, status: { state: 'TASK_STATE_COMPLETED', message: reply } };
    }
    return this.client.getTask({ id });
  }

  /** `tasks/result`: blocks until the A2A task settles, asking the user when it needs input. */
  private async taskPayload(server: Server, taskId: string, extra: Extra) {
    const meta = { [this.sdk.types.RELATED_TASK_META_KEY]: { taskId } };
    const reply = this.replies.get(taskId);
    if (reply) return { ...messageResult(reply, this.inline), _meta: meta };
    const task = await driveTask(this.client, taskId, await this.hooks(server, extra, undefined));
    return { ...taskResult(task, this.inline), _meta: meta };
  }

  /**
   * Runs a protocol method in the trace context of its request's `_meta`; A2A errors become
   * MCP errors with the mapped code.
   */
  private async protocol<T>(
    run: () => Promise<T>,
    request: { params?: { _meta?: Args | undefined } | undefined },
  ): Promise<T> {
    try {
      return await inTraceOf(request.params?._meta, run);
    } catch (error) {
      if (isA2AError(error))
        throw new this.sdk.types.McpError(mcpCodeOf(error.code), error.message);
      throw error;
    }
  }

  private async hooks(server: Server, extra: Extra, meta: Args | undefined): Promise<DriveHooks> {
    const token = (meta ?? extra._meta)?.progressToken as string | number | undefined;
    let progress = 0;
    const t = this.sdk.types;
    return {
      signal: extra.signal,
      headers: await outgoingTrace(),
      pollMs: this.pollMs,
      progress:
        token === undefined
          ? undefined
          : (message) =>
              extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, progress: ++progress, message },
              }),
      ask: askUser(server.getClientCapabilities(), (params) =>
        extra.sendRequest({ method: 'elicitation/create', params }, t.ElicitResultSchema),
      ),
    };
  }

  private async callTool(
    server: Server,
    params: {
      name: string;
      arguments?: Args | undefined;
      task?: unknown;
      _meta?: Args | undefined;
    },
    extra: Extra,
  ) {
    const tool = this.tools.find((t) => t.name === params.name);
    if (!tool)
      throw new this.sdk.types.McpError(MCP_INVALID_PARAMS, `Unknown tool: ${params.name}`);
    const args = params.arguments ?? {};
    const headers = await outgoingTrace();
    try {
      switch (tool.name) {
        case 'get_task':
          return taskResult(await this.task(str(args.taskId)), this.inline);
        case 'cancel_task':
          return taskResult(await this.client.cancelTask({ id: str(args.taskId) }, { headers }));
        case 'list_tasks':
          return this.listTasks(args);
        case 'view_text_artifact':
          return viewText(await this.task(str(args.taskId)), viewArgs(args));
        case 'view_data_artifact':
          return viewData(await this.task(str(args.taskId)), viewArgs(args));
      }
      const message = messageOf(args);
      if (typeof message === 'string') return failure(message);
      if (params.task !== undefined) {
        const reply = await this.client.sendMessage(
          { message, configuration: { returnImmediately: true } },
          { headers },
        );
        if ('task' in reply) return { task: this.mcpTask(reply.task) };
        const id = `message-${reply.message.messageId}`;
        this.remember(id, reply.message);
        return { task: this.mcpTask(await this.task(id)) };
      }
      const done = await driveMessage(
        this.client,
        { message },
        await this.hooks(server, extra, params._meta),
      );
      return 'role' in done ? messageResult(done, this.inline) : taskResult(done, this.inline);
    } catch (error) {
      if (isA2AError(error)) return failure(`${error.code}: ${error.message}`);
      if (extra.signal.aborted) throw error;
      return failure(`The agent could not be reached: ${(error as Error).message}`);
    }
  }

  private async listTasks(args: Args): Promise<CallToolResult> {
    const page = await this.client.listTasks({
      ...(typeof args.contextId === 'string' ? { contextId: args.contextId } : {}),
      ...(typeof args.status === 'string'
        ? { status: args.status as Task['status']['state'] }
        : {}),
      ...(typeof args.pageSize === 'number' ? { pageSize: args.pageSize } : {}),
      ...(typeof args.pageToken === 'string' ? { pageToken: args.pageToken } : {}),
    });
    const lines = page.tasks.map(
      (task) =>
        `${task.id}  ${task.status.state}${task.contextId ? `  context ${task.contextId}` : ''}`,
    );
    if (page.nextPageToken) lines.push(`more: list_tasks {"pageToken": "${page.nextPageToken}"}`);
    return {
      content: [{ type: 'text', text: lines.join('\n') || 'No tasks.' }],
      structuredContent: {
        tasks: page.tasks.map((task) => ({ taskId: task.id, state: task.status.state })),
        ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      },
    };
  }

  private remember(id: string, message: Message): void {
    this.replies.set(id, message);
    // Bounded: the oldest direct replies are forgotten first.
    if (this.replies.size > 1000) this.replies.delete(this.replies.keys().next().value as string);
  }
}

function viewArgs(args: Args): ViewArgs {
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return {
    artifactId: typeof args.artifactId === 'string' ? args.artifactId : undefined,
    path: typeof args.path === 'string' ? args.path : undefined,
    offset: num(args.offset),
    limit: num(args.limit),
  };
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The A2A message a tool call sends: a text and/or a data part; a continuation keeps its task. */
function messageOf(args: Args): Message | string {
  const parts: Part[] = [];
  if (typeof args.text === 'string' && args.text !== '') parts.push(textPart(args.text));
  if (args.data !== undefined && args.data !== null) parts.push(dataPart(args.data));
  if (parts.length === 0) return 'Give the message as "text" (a string) or "data" (an object).';
  return {
    messageId: newId(),
    role: 'ROLE_USER',
    parts,
    ...(typeof args.taskId === 'string' && args.taskId ? { taskId: args.taskId } : {}),
    ...(typeof args.contextId === 'string' && args.contextId ? { contextId: args.contextId } : {}),
  };
}
