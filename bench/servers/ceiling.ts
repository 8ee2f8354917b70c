/**
 * The ceiling: a bare node:http server that reads the request body and answers a fixed small
 * JSON, the most any Node HTTP server can do on this machine.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { processStats, serveRpc } from '../ipc.js';

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ok: true } });
const LENGTH = String(Buffer.byteLength(BODY));

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': LENGTH });
    res.end(BODY);
  });
});
server.listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', () => resolve()));

serveRpc(
  {
    stats: (arg: { gc: boolean }) => processStats(arg.gc),
  },
  { port: (server.address() as AddressInfo).port },
);
