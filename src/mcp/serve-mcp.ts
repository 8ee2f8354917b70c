/**
 * Serves MCP sessions of a bridge (anything with `server()`, such as A2AMcpBridge) over stdio
 * (one session on this process's stdin/stdout) or Streamable HTTP (MCP spec 2025-11-25,
 * "Transports"): one SDK server and transport per `Mcp-Session-Id`, on the SDK's web-standard
 * transport behind a2a-kit's node:http listener. Requests from a foreign browser origin are
 * refused (the spec's DNS-rebinding guard).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { newId } from '../core/ids.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import { serveHandler } from '../node/serve-handler.js';
import { loadMcpSdk } from './sdk.js';

/** What serves MCP sessions: a new SDK server per session. */
export interface McpServerSource {
  server(): Server;
}

/** A running MCP endpoint. */
export interface McpEndpoint {
  /** The Streamable HTTP endpoint URL (`http://127.0.0.1:PORT/mcp`); absent on stdio. */
  readonly url?: string | undefined;
  /** Stdio: resolves when stdin ends (the MCP client went away). */
  readonly ended?: Promise<void> | undefined;
  close(): Promise<void>;
}

/** Serves one MCP session on stdin/stdout (what desktop MCP clients start). */
export async function serveMcpStdio(
  source: McpServerSource,
  streams: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {},
): Promise<McpEndpoint> {
  const sdk = await loadMcpSdk();
  const server = source.server();
  const transport = new sdk.stdioServer.StdioServerTransport(
    streams.stdin as never,
    streams.stdout as never,
  );
  const stdin = streams.stdin ?? process.stdin;
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', () => resolve());
    stdin.once('close', () => resolve());
  });
  await server.connect(transport);
  return { ended, close: () => server.close() };
}

/** Options of {@link serveMcpHttp}. */
export interface McpHttpOptions {
  /** TCP port (default 0: any free port). */
  port?: number | undefined;
  /** Interface (default 127.0.0.1). */
  host?: string | undefined;
  /** Endpoint path (default `/mcp`). */
  path?: string | undefined;
}

/** The request headers the MCP transport reads (the a2a-kit request model only looks up). */
const FORWARDED = [
  'accept',
  'content-type',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'authorization',
  'host',
  'origin',
  'traceparent',
  'tracestate',
  'baggage',
];

/** Serves MCP over Streamable HTTP on `host:port` at `path`. */
export async function serveMcpHttp(
  source: McpServerSource,
  options: McpHttpOptions = {},
): Promise<McpEndpoint> {
  const sdk = await loadMcpSdk();
  const path = options.path ?? '/mcp';
  const sessions = new Map<
    string,
    { transport: WebStandardStreamableHTTPServerTransport; server: Server }
  >();
  const json = (status: number, code: number, message: string): HttpResponse => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }),
  });

  const handler = async (req: HttpRequest): Promise<HttpResponse> => {
    if (req.url.split('?')[0] !== path)
      return json(404, -32601, `Not found: the MCP endpoint is ${path}`);
    if (!sameOrigin(req)) return json(403, -32600, 'Forbidden origin');
    const request = toRequest(req);
    const id = req.headers.get('mcp-session-id');
    let session = id !== null ? sessions.get(id) : undefined;
    if (id !== null && !session) return json(404, -32001, 'Session not found: initialize again');
    if (!session) {
      if (req.method !== 'POST')
        return json(400, -32000, 'No session: POST an initialize request first');
      const server = source.server();
      const transport: WebStandardStreamableHTTPServerTransport =
        new sdk.httpServer.WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: newId,
          onsessioninitialized: (sid) => void sessions.set(sid, { transport, server }),
          onsessionclosed: (sid) => void sessions.delete(sid),
        });
      await server.connect(transport);
      session = { transport, server };
    }
    return fromResponse(await session.transport.handleRequest(request));
  };
  const running = await serveHandler(handler, options);
  return {
    url: `${running.url}${path}`,
    close: async () => {
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => undefined)));
      sessions.clear();
      await running.close();
    },
  };
}

/** No Origin (not a browser), or one on the Host the request came to. */
function sameOrigin(req: HttpRequest): boolean {
  const origin = req.headers.get('origin');
  if (origin === null) return true;
  try {
    return new URL(origin).host === req.headers.get('host');
  } catch {
    return false;
  }
}

function toRequest(req: HttpRequest): Request {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = req.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const host = req.headers.get('host') ?? '127.0.0.1';
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined;
  return new Request(`http://${host}${req.url}`, {
    method: req.method,
    headers,
    ...(hasBody ? { body: req.body as BodyInit } : {}),
    ...(req.signal ? { signal: req.signal } : {}),
  });
}

async function fromResponse(response: Response): Promise<HttpResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const body = response.body;
  if (!body) return { status: response.status, headers, body: undefined };
  if (!(headers['content-type'] ?? '').includes('text/event-stream')) {
    return { status: response.status, headers, body: await response.text() };
  }
  return { status: response.status, headers, body: textChunks(body) };
}

async function* textChunks(body: ReadableStream<Uint8Array>): AsyncIterable<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}
