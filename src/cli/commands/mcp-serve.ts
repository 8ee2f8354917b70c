/**
 * `a2a mcp serve URL`: the A2A agent at URL as an MCP server (a2a-kit/mcp), on stdio for desktop
 * MCP clients, or on Streamable HTTP with `--http PORT`. Needs @modelcontextprotocol/sdk.
 */
import { EXAMPLE_URL, type Command } from '../command.js';
import { agentUrl, connect } from '../connect.js';
import { EXIT } from '../exit-codes.js';
import { intFlag, stringFlag } from '../options.js';
import { noExtraArgs, requireArgs } from '../task-helpers.js';
import { untilAborted } from './serve.js';

/** The `mcp serve` verb. */
export const mcpServeCommand: Command = {
  name: 'mcp serve',
  summary: 'offer an A2A agent to MCP clients (tools per skill; stdio or --http PORT)',
  usage: ['mcp serve <url> [--http PORT] [--host H] [--prefix P]'],
  flags: {
    http: { type: 'string' },
    host: { type: 'string' },
    prefix: { type: 'string' },
  },
  flagHelp: [
    [
      '--http PORT',
      'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (0 = any port)',
    ],
    ['--host H', 'with --http: interface to bind (default 127.0.0.1)'],
    ['--prefix P', "tool name prefix (default: the agent's name, e.g. a2a_kit_demo_agent)"],
  ],
  examples: [
    `mcp serve ${EXAMPLE_URL}`,
    `mcp serve ${EXAMPLE_URL} --http 3001`,
    `mcp serve ${EXAMPLE_URL} --prefix demo`,
  ],
  notes: [
    'Each skill of the agent becomes a tool (<prefix>_<skill id>), next to send_message, get_task,',
    'cancel_task, list_tasks, view_text_artifact and view_data_artifact. A task that asks for input',
    'becomes an MCP elicitation when the client supports it; otherwise the tool result says how to',
    'continue it. With MCP tasks, a tool call answers at once with the A2A task as an MCP task.',
    'On stdio, stdout carries MCP messages only: notices go to stderr. A desktop MCP client config:',
    '  {"mcpServers": {"demo": {"command": "a2a", "args": ["mcp", "serve", "http://127.0.0.1:8765"]}}}',
    'Needs @modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk). See docs/mcp.md.',
  ],
  async run({ positionals, values, global, io, out, signal, errors }) {
    const [rawUrl = ''] = requireArgs(positionals, ['the agent URL']);
    noExtraArgs(positionals, 1);
    const port = intFlag(values, 'http', 0, 65535);
    const prefix = stringFlag(values, 'prefix');
    const client = await connect(agentUrl(rawUrl), global, errors, signal);
    const mcp = await import('../../mcp/index.js');
    const bridge = await mcp.createA2AMcpBridge({ client, ...(prefix ? { prefix } : {}) });
    if (port === undefined) {
      const endpoint = await mcp.serveMcpStdio(bridge);
      io.stderr.write(
        `a2a mcp serve: ${client.card.name} (${bridge.tools.length} tools) on stdio\n`,
      );
      await Promise.race([untilAborted(signal), endpoint.ended]);
      await endpoint.close();
      return EXIT.OK;
    }
    const endpoint = await mcp.serveMcpHttp(bridge, { port, host: stringFlag(values, 'host') });
    if (out.json)
      out.jsonLine({
        url: endpoint.url,
        agent: client.card.name,
        tools: bridge.tools.map((t) => t.name),
      });
    else {
      out.line(
        `${out.style.bold('a2a mcp serve')} offers ${client.card.name} on ${out.style.bold(endpoint.url ?? '')}`,
      );
      out.line(`  Tools  ${bridge.tools.map((t) => t.name).join(', ')}`);
      out.line(out.style.dim('Press Ctrl+C to stop.'));
    }
    await untilAborted(signal);
    await endpoint.close();
    if (!out.json) out.line('stopped.');
    return EXIT.OK;
  },
};
