/**
 * An MCP server as an A2A agent (`a2a-kit/mcp`): its tools become the skills of a generated
 * card, a message becomes one tool call (tool-routing.ts picks the tool and arguments), MCP
 * progress notifications become WORKING status updates, the tool result becomes artifacts, and
 * `isError` results fail the task. Served like any agent (`serve(agent)`), it gets durable tasks,
 * streaming, push and auth; CancelTask cancels the MCP request (MCP `notifications/cancelled`).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { dataPart, rawPart, textPart, fileUrlPart } from '../core/parts.js';
import type { AgentSkill, Part } from '../core/schemas/index.js';
import type { Agent, AgentCardConfig, AgentEvent, ExecutionContext } from '../server/agent.js';
import { routeMessage, type ToolRouter } from './tool-routing.js';
import { outgoingTrace } from './trace.js';

/** Options of {@link mcpAgent}. */
export interface McpAgentOptions {
  /** A connected MCP client ({@link connectMcpServer}); closed by the agent's `close()`. */
  client: Client;
  /** Replaces fields of the generated card (name, description, version, provider, …). */
  card?: Partial<AgentCardConfig> | undefined;
  /** Picks the tool and arguments for a message (default {@link routeMessage}). */
  route?: ToolRouter | undefined;
  /** Longest silence of a tool call, reset by each progress notification (default 10 min). */
  toolTimeoutMs?: number | undefined;
}

/** An agent backed by an MCP server; `close()` disconnects (and stops a stdio server). */
export interface McpAgent extends Agent {
  readonly tools: readonly Tool[];
  close(): Promise<void>;
}

const SCHEMA_CHARS = 1500;

function skillOf(tool: Tool): AgentSkill {
  const schema = JSON.stringify(tool.inputSchema);
  const args = schema.length > SCHEMA_CHARS ? `${schema.slice(0, SCHEMA_CHARS)}…` : schema;
  const hints = tool.annotations ?? {};
  return {
    id: tool.name,
    name: tool.title ?? hints.title ?? tool.name,
    description: `${tool.description ?? `The MCP tool ${tool.name}.`} Arguments (JSON Schema): ${args}`,
    tags: [
      'mcp-tool',
      ...(hints.readOnlyHint ? ['read-only'] : []),
      ...(hints.destructiveHint ? ['destructive'] : []),
    ],
    examples: [JSON.stringify({ tool: tool.name, arguments: {} })],
    inputModes: ['application/json', 'text/plain'],
    outputModes: ['text/plain', 'application/json'],
  };
}

/** Every tool of the server (all pages of `tools/list`). */
async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** The artifact parts of a tool result: text, then files, then the structured content. */
function partsOf(result: CallToolResult): Part[] {
  const parts: Part[] = [];
  for (const block of result.content) {
    if (block.type === 'text') parts.push(textPart(block.text));
    else if (block.type === 'image' || block.type === 'audio') {
      parts.push(rawPart(block.data, { mediaType: block.mimeType }));
    } else if (block.type === 'resource_link') {
      parts.push(
        fileUrlPart(block.uri, {
          filename: block.name,
          ...(block.mimeType ? { mediaType: block.mimeType } : {}),
        }),
      );
    } else if (block.type === 'resource') {
      const r = block.resource;
      const media = r.mimeType ? { mediaType: r.mimeType } : {};
      parts.push('text' in r ? textPart(r.text, media) : rawPart(r.blob, media));
    }
  }
  if (result.structuredContent !== undefined) parts.push(dataPart(result.structuredContent));
  return parts;
}

/** Lists the server's tools and builds the agent. */
export async function mcpAgent(options: McpAgentOptions): Promise<McpAgent> {
  const { client } = options;
  const tools = await listAllTools(client);
  const server = client.getServerVersion();
  const route = options.route ?? routeMessage;
  const timeout = options.toolTimeoutMs ?? 600_000;
  const card: AgentCardConfig = {
    name: server?.title ?? server?.name ?? 'MCP server',
    description:
      client.getInstructions() ??
      `The MCP server ${server?.name ?? ''} as an A2A agent: each skill is one of its tools. Send a data part {"tool": name, "arguments": {...}}, or text starting with the tool name.`,
    version: server?.version ?? '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: tools.map(skillOf),
    ...options.card,
  };

  async function* execute({ message, task, signal }: ExecutionContext): AsyncIterable<AgentEvent> {
    const routed = route(message, tools);
    if ('refused' in routed) {
      yield task.rejected(routed.refused);
      return;
    }
    yield task.working(`Calling the MCP tool ${routed.tool}.`);
    const trace = await outgoingTrace();
    const updates: string[] = [];
    let wake: (() => void) | undefined;
    const call = client
      .callTool(
        {
          name: routed.tool,
          arguments: routed.arguments,
          ...(Object.keys(trace).length ? { _meta: trace } : {}),
        },
        undefined,
        {
          signal,
          timeout,
          resetTimeoutOnProgress: true,
          onprogress: ({ progress, total, message: said }) => {
            updates.push(
              `${said ?? 'Working'} (${progress}${total !== undefined ? `/${total}` : ''})`,
            );
            wake?.();
          },
        },
      )
      .then(
        (result) => ({ result: result as CallToolResult }),
        (error: unknown) => ({ error }),
      );
    let outcome: { result: CallToolResult } | { error: unknown } | undefined;
    void call.then((o) => {
      outcome = o;
      wake?.();
    });
    // Progress notifications arrive while the call runs: each one is a WORKING status update.
    for (;;) {
      for (let u = updates.shift(); u !== undefined; u = updates.shift()) yield task.working(u);
      if (outcome !== undefined) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (outcome !== undefined || updates.length > 0) resolve();
      });
      wake = undefined;
    }
    if (signal.aborted) return; // canceled: the server has recorded CANCELED
    if ('error' in outcome) {
      yield task.failed(
        `The MCP tool call failed: ${(outcome.error as Error).message ?? String(outcome.error)}`,
      );
      return;
    }
    const parts = partsOf(outcome.result);
    if (outcome.result.isError === true) {
      yield task.failed(parts.length ? parts : `The tool ${routed.tool} reported an error.`);
      return;
    }
    if (parts.length) yield task.artifact(parts, { name: routed.tool });
    yield task.completed();
  }

  return {
    card,
    tools,
    execute,
    close: () => client.close(),
  };
}
