/**
 * Test harness of the MCP bridge: the demo agent on real HTTP (fast timing), an A2A client of
 * it, the bridge served over Streamable HTTP, and a real MCP SDK client connected to it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { A2AClient } from '../../../src/client/index.js';
import { startDemo, type DemoServer } from '../../../src/demo/main.js';
import {
  createA2AMcpBridge,
  serveMcpHttp,
  type A2AMcpBridge,
  type McpEndpoint,
} from '../../../src/mcp/index.js';

/** A demo agent with its bridge served over Streamable HTTP. */
export interface BridgedDemo {
  demo: DemoServer;
  a2a: A2AClient;
  bridge: A2AMcpBridge;
  endpoint: McpEndpoint;
  close(): Promise<void>;
}

/** Starts the demo agent (fast `slow` and `story`) and its MCP bridge. */
export async function bridgedDemo(tickMs = 100): Promise<BridgedDemo> {
  const demo = await startDemo({
    port: 0,
    grpc: false,
    logger: null,
    agent: { tickMs, chunkDelayMs: 1 },
  });
  const a2a = await A2AClient.connect(demo.url);
  const bridge = await createA2AMcpBridge({ client: a2a, pollIntervalMs: 50 });
  const endpoint = await serveMcpHttp(bridge, { port: 0 });
  return {
    demo,
    a2a,
    bridge,
    endpoint,
    close: async () => {
      await endpoint.close();
      await demo.close();
    },
  };
}

/** Options of {@link mcpClient}. */
export interface McpClientOptions {
  /** Answers elicitations; when absent the client declares no elicitation capability. */
  elicit?: ((request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>) | undefined;
  /** Declare URL-mode elicitation too. */
  urlMode?: boolean;
  /** Declare the tasks capability. */
  tasks?: boolean;
}

/** A real MCP SDK client connected to `url` over Streamable HTTP. */
export async function mcpClient(url: string, options: McpClientOptions = {}): Promise<Client> {
  const capabilities: ClientCapabilities = {};
  if (options.elicit)
    capabilities.elicitation = { form: {}, ...(options.urlMode ? { url: {} } : {}) };
  if (options.tasks) capabilities.tasks = { list: {}, cancel: {}, requests: {} };
  const client = new Client({ name: 'bridge-test', version: '1.0.0' }, { capabilities });
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The text blocks of a tool result, joined. */
export function textOfResult(result: object): string {
  const content = ((result as { content?: unknown }).content ?? []) as {
    type: string;
    text?: string;
  }[];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}
