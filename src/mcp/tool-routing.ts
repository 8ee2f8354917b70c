/**
 * Which MCP tool an A2A message calls, and with which arguments (the small, replaceable routing
 * policy of {@link mcpAgent}): a data part `{"tool": name, "arguments": {...}}` names both; a data
 * part alone is the arguments of the only tool (or of the tool named in the message metadata
 * `tool`); text `name {json}` or `name rest` calls that tool, the rest going to its one string
 * argument; text for a server with a single tool goes to that tool.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { textOf } from '../core/parts.js';
import type { Message } from '../core/schemas/index.js';

/** A routed call, or why the message could not be routed (shown to the caller). */
export type ToolRoute = { tool: string; arguments: Record<string, unknown> } | { refused: string };

/** A routing policy: the tools of the server and the message; the default is {@link routeMessage}. */
export type ToolRouter = (message: Message, tools: readonly Tool[]) => ToolRoute;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The one string argument a tool takes text in: the only property, or the only required string. */
function textArgument(tool: Tool): string | undefined {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const names = Object.keys(props);
  const strings = names.filter((n) => props[n]?.type === 'string');
  if (names.length === 1 && strings.length === 1) return strings[0];
  const required = (tool.inputSchema.required ?? []).filter((n) => strings.includes(n));
  if (required.length === 1) return required[0];
  return strings.length === 1 ? strings[0] : undefined;
}

function textCall(tool: Tool, rest: string): ToolRoute {
  const trimmed = rest.trim();
  if (trimmed.startsWith('{')) {
    try {
      const args: unknown = JSON.parse(trimmed);
      if (isObject(args)) return { tool: tool.name, arguments: args };
    } catch {
      // Not JSON: taken as text below.
    }
  }
  if (trimmed === '') return { tool: tool.name, arguments: {} };
  const arg = textArgument(tool);
  if (!arg) {
    return {
      refused: `Tool "${tool.name}" takes structured arguments: send them as JSON text ("${tool.name} {...}") or a data part {"tool": "${tool.name}", "arguments": {...}}.`,
    };
  }
  return { tool: tool.name, arguments: { [arg]: trimmed } };
}

/** The default routing policy (see the file header). */
export const routeMessage: ToolRouter = (message, tools) => {
  const names = tools.map((t) => t.name);
  const byName = (name: unknown) => tools.find((t) => t.name === name);
  const unknown = (name: unknown): ToolRoute => ({
    refused: `No tool named ${JSON.stringify(name)}; the tools are: ${names.join(', ')}.`,
  });
  const data = message.parts.find((p) => p.data !== undefined)?.data;
  const named = message.metadata?.tool;
  if (isObject(data) && typeof data.tool === 'string') {
    const args = data.arguments ?? {};
    if (!isObject(args)) return { refused: '"arguments" must be an object.' };
    return byName(data.tool) ? { tool: data.tool, arguments: args } : unknown(data.tool);
  }
  if (isObject(data)) {
    if (typeof named === 'string')
      return byName(named) ? { tool: named, arguments: data } : unknown(named);
    if (tools.length === 1) return { tool: names[0] as string, arguments: data };
    return {
      refused: `Say which tool: a data part {"tool": name, "arguments": {...}}; the tools are: ${names.join(', ')}.`,
    };
  }
  const text = textOf(message).trim();
  const [first = '', ...rest] = text.split(/\s+/);
  const tool = byName(typeof named === 'string' ? named : first);
  if (tool) return textCall(tool, typeof named === 'string' ? text : text.slice(first.length));
  if (tools.length === 1) return textCall(tools[0] as Tool, text);
  void rest;
  return {
    refused: `Start the text with a tool name (${names.join(', ')}), e.g. "${names[0] ?? 'tool'} {...}", or send a data part {"tool": name, "arguments": {...}}.`,
  };
};
