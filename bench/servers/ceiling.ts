/**
 * The ceiling: a bare node:http server that reads the request body and answers a fixed small
 * JSON, the most any Node HTTP server can do on this machine. A streaming send (JSON-RPC
 * `SendStreamingMessage`, HTTP+JSON `message:stream`) gets four fixed SSE events instead, the
 * shape of the echo task's stream: the ceiling of the stream scenario.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { processStats, serveRpc } from '../ipc.js';

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ok: true } });
const LENGTH = String(Buffer.byteLength(BODY));
const STREAM_METHOD = Buffer.from('"SendStreamingMessage"');
const STATES = ['SUBMITTED', 'WORKING', 'WORKING', 'COMPLETED'];
const FRAMES = STATES.map(
  (state, i) =>
    `id: ${i + 1}\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { state: `TASK_STATE_${state}` } })}\n\n`,
).join('');
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

function fixed(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': LENGTH });
  res.end(BODY);
}

function stream(res: ServerResponse): void {
  res.writeHead(200, SSE_HEADERS);
  res.end(FRAMES);
}

const server = createServer((req, res) => {
  let streaming = req.url?.endsWith(':stream') === true;
  req.on('data', (chunk: Buffer) => {
    if (!streaming && chunk.includes(STREAM_METHOD)) streaming = true;
  });
  req.on('end', () => (streaming ? stream(res) : fixed(res)));
});
server.listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', () => resolve()));

serveRpc(
  {
    stats: (arg: { gc: boolean }) => processStats(arg.gc),
  },
  { port: (server.address() as AddressInfo).port },
);
