/**
 * Watches what a node:http server writes to its sockets: every write reaches a socket through
 * `_write` (one chunk) or `_writev` (corked chunks), and `record` is told of each with the number
 * of chunks it carries. For tests of how replies are written (one write per burst, the check
 * phase of the event loop).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export function onSocketWrites(server: Server, record: (chunks: number) => void): void {
  server.on('connection', (socket: Socket) => {
    type Write = (...args: unknown[]) => void;
    const internals = socket as unknown as Record<'_write' | '_writev', Write>;
    for (const name of ['_write', '_writev'] as const) {
      const original = internals[name].bind(socket);
      internals[name] = (...args: unknown[]) => {
        record(name === '_writev' ? (args[0] as unknown[]).length : 1);
        original(...args);
      };
    }
  });
}
