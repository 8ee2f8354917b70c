/**
 * Connects an MCP client (the SDK's) to an MCP server given as a command line (stdio: the server
 * runs as a child process) or as a Streamable HTTP URL, for {@link mcpAgent}.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { loadMcpSdk } from './sdk.js';

/** Where the MCP server is: a URL, a command line (`'node server.js --flag'`), or argv. */
export type McpServerTarget =
  | string
  | URL
  | { command: string; args?: readonly string[]; env?: Record<string, string>; cwd?: string };

/** Splits a command line into words: spaces separate, quotes and backslashes group (no shell). */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started || word) words.push(word);
      word = '';
      started = false;
    } else word += c;
  }
  if (quote) throw new Error(`unclosed ${quote} in the command line: ${line}`);
  if (started || word) words.push(word);
  return words;
}

/** Options of {@link connectMcpServer}. */
export interface ConnectMcpOptions {
  /** Where a stdio server's stderr goes (default `inherit`: this process's stderr). */
  stderr?: 'inherit' | 'pipe' | 'ignore' | undefined;
  /** Extra HTTP headers for a URL server (authorization). */
  headers?: Record<string, string> | undefined;
  /** The client's name in `initialize` (default `a2a-kit`). */
  clientName?: string | undefined;
}

/** An MCP client connected to `target`; close it to stop a stdio server. */
export async function connectMcpServer(
  target: McpServerTarget,
  options: ConnectMcpOptions = {},
): Promise<Client> {
  const sdk = await loadMcpSdk();
  const client = new sdk.client.Client(
    { name: options.clientName ?? 'a2a-kit', version: '1.0.0' },
    { capabilities: {} },
  );
  const isUrl =
    target instanceof URL || (typeof target === 'string' && /^https?:\/\//i.test(target));
  if (isUrl) {
    const init = options.headers ? { requestInit: { headers: options.headers } } : {};
    await client.connect(
      new sdk.httpClient.StreamableHTTPClientTransport(new URL(String(target)), init),
    );
    return client;
  }
  const argv =
    typeof target === 'string' ? splitCommand(target) : [target.command, ...(target.args ?? [])];
  const [command, ...args] = argv;
  if (!command) throw new Error('the MCP server command is empty');
  const spec = typeof target === 'object' && !(target instanceof URL) ? target : undefined;
  await client.connect(
    new sdk.stdioClient.StdioClientTransport({
      command,
      args,
      stderr: options.stderr ?? 'inherit',
      ...(spec?.env ? { env: { ...sdk.stdioClient.getDefaultEnvironment(), ...spec.env } } : {}),
      ...(spec?.cwd ? { cwd: spec.cwd } : {}),
    }),
  );
  return client;
}
