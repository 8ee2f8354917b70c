/**
 * The MCP verbs of the CLI, run in-process over real HTTP: `a2a serve --mcp 'cmd args'` (an MCP
 * server started as a child process, offered as an A2A agent) and `a2a mcp serve URL --http 0`
 * (the demo agent offered to a real MCP SDK client over Streamable HTTP); their help.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/index.js';
import { dataOf, dataPart, userMessage } from '../../src/core/parts.js';
import type { ServeResult } from '../../src/node/index.js';
import { cli, startDemoAgent } from './harness.js';

const FIXTURE = new URL('../fixtures/mcp/tool-server.mjs', import.meta.url).pathname;

/** Runs the CLI until it prints a URL matching `pattern`; then a stop. */
async function running(argv: string[], pattern: RegExp) {
  const stop = new AbortController();
  let found: (url: string) => void = () => undefined;
  const ready = new Promise<string>((resolve) => (found = resolve));
  const done = cli(argv, {
    signal: stop.signal,
    onStdout: (soFar) => {
      const url = pattern.exec(soFar)?.[1];
      if (url) found(url);
    },
  });
  const url = await Promise.race([
    ready,
    done.then((r) => {
      throw new Error(`ended: ${r.code} ${r.stderr}`);
    }),
  ]);
  return {
    url,
    stop: async () => {
      stop.abort();
      return done;
    },
  };
}

describe('a2a serve --mcp', () => {
  it('serves an MCP server (a stdio command) as an A2A agent whose skills are its tools', async () => {
    const served = await running(
      ['serve', '--port', '0', '--mcp', `${process.execPath} ${FIXTURE}`, '--name', 'Tools'],
      / on (http:\/\/\S+)/,
    );
    try {
      const client = await A2AClient.connect(served.url);
      expect(client.card.name).toBe('Tools');
      expect(client.card.skills.map((s) => s.id)).toContain('add');
      const reply = await client.sendMessage({
        message: userMessage([dataPart({ tool: 'add', arguments: { a: 20, b: 22 } })]),
      });
      expect('task' in reply && dataOf(reply.task.artifacts?.[0])).toEqual({ sum: 42 });
    } finally {
      const result = await served.stop();
      expect(result.code).toBe(0);
    }
  });

  it('--mcp cannot be combined with another mode', async () => {
    const result = await cli(['serve', '--mcp', 'x', '--echo']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('cannot be combined');
  });
});

describe('a2a mcp serve', () => {
  let demo: ServeResult;
  beforeAll(async () => {
    demo = await startDemoAgent();
  });
  afterAll(() => demo.close());

  it('--http offers the agent over Streamable HTTP to a real MCP client', async () => {
    const served = await running(
      ['mcp', 'serve', demo.url, '--http', '0'],
      / on (http:\/\/\S+\/mcp)/,
    );
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('a2a_kit_demo_agent_echo');
      const result = await client.callTool({
        name: 'a2a_kit_demo_agent_echo',
        arguments: { text: 'echo via the cli' },
      });
      expect(JSON.stringify(result.content)).toContain('You said: via the cli');
    } finally {
      await client.close();
      expect((await served.stop()).code).toBe(0);
    }
  });

  it('--help teaches the verb, with a desktop client config', async () => {
    const result = await cli(['mcp', 'serve', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('mcp serve <url> [--http PORT]');
    expect(result.stdout).toContain('"mcpServers"');
    const serve = await cli(['serve', '--help']);
    expect(serve.stdout).toContain('--mcp CMD|URL');
  });
});
