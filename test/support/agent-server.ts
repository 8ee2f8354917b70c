/** Helpers for A2AClient tests: wire servers closed after each test, JSON-RPC reply builders. */
import { afterEach } from 'vitest';
import type { AgentInterface } from '../../src/core/schemas/index.js';
import {
  sendJson,
  startWireServer,
  type RecordedRequest,
  type WireHandler,
  type WireServer,
} from './wire-server.js';

let servers: WireServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** Starts a wire server that is closed after the current test. */
export async function start(handler: WireHandler): Promise<WireServer> {
  const s = await startWireServer(handler);
  servers.push(s);
  return s;
}

/** The JSON-RPC id of a recorded request. */
export const rpcId = (req: RecordedRequest) => (req.json as { id: number }).id;
/** The JSON-RPC method of a recorded request. */
export const rpcMethod = (req: RecordedRequest) => (req.json as { method: string }).method;
/** The JSON-RPC params of a recorded request. */
export const rpcParams = (req: RecordedRequest) =>
  (req.json as { params: Record<string, unknown> }).params;

/** Answers every JSON-RPC request with `result`. */
export const rpcResult =
  (result: unknown): WireHandler =>
  (req, res) =>
    sendJson(res, 200, { jsonrpc: '2.0', id: rpcId(req), result });

/** The JSON-RPC interface of a wire server (at `/a2a`). */
export const jsonrpc = (s: WireServer, extra: Partial<AgentInterface> = {}): AgentInterface => ({
  url: `${s.url}/a2a`,
  protocolBinding: 'JSONRPC',
  protocolVersion: '1.0',
  ...extra,
});

/** The HTTP+JSON interface of a wire server (at `/rest`). */
export const rest = (s: WireServer, extra: Partial<AgentInterface> = {}): AgentInterface => ({
  url: `${s.url}/rest`,
  protocolBinding: 'HTTP+JSON',
  protocolVersion: '1.0',
  ...extra,
});

/** The rejection of `promise` (fails the test if it resolves). */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
}
