/**
 * `a2a-kit/mcp`: the MCP bridge in both directions, on the optional peer
 * @modelcontextprotocol/sdk (loaded on first use). An A2A agent as an MCP server
 * (createA2AMcpBridge + serveMcpStdio / serveMcpHttp), and an MCP server as an A2A agent
 * (connectMcpServer + mcpAgent). See docs/mcp.md.
 */
export { A2AMcpBridge, createA2AMcpBridge } from './agent-as-mcp.js';
export type { A2AMcpBridgeOptions } from './agent-as-mcp.js';
export { bridgeTools, GENERIC_TOOLS } from './tools.js';
export type { BridgeTool, BridgeToolOptions, JsonSchemaObject } from './tools.js';
export { serveMcpHttp, serveMcpStdio } from './serve-mcp.js';
export type { McpEndpoint, McpHttpOptions, McpServerSource } from './serve-mcp.js';
export { MCP_STATUS_OF, mcpCodeOf } from './mapping.js';
export type { McpTaskStatus } from './mapping.js';
export { withTraceContext } from './trace.js';
export { loadMcpSdk } from './sdk.js';
export { mcpAgent } from './mcp-agent.js';
export type { McpAgent, McpAgentOptions } from './mcp-agent.js';
export { connectMcpServer, splitCommand } from './connect-mcp.js';
export type { ConnectMcpOptions, McpServerTarget } from './connect-mcp.js';
export { routeMessage } from './tool-routing.js';
export type { ToolRoute, ToolRouter } from './tool-routing.js';
