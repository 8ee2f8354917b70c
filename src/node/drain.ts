/**
 * A refusal the client reads: after answering a request whose body is not read (too large, or a
 * connection past its cap) with `Connection: close`, the rest of the body is read and discarded,
 * up to a bound in bytes and time, and the connection is half-closed rather than destroyed. A
 * socket closed with unread data sends a TCP reset, and the client, still writing, would see
 * EPIPE or ECONNRESET instead of the 413 (RFC 9112 §9.6: close in stages).
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How much of a refused body is drained. */
export interface DrainLimits {
  readonly maxDrainBytes: number;
  readonly drainTimeoutMs: number;
}

/** Drains the rest of `req` (see the module comment); call before the reply is written. */
export function drainRefused(req: IncomingMessage, limits: DrainLimits): void {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, limits.drainTimeoutMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > limits.maxDrainBytes) cut();
  });
  req.resume();
  // node:http destroys a `Connection: close` socket once the reply is written; end it instead
  // (FIN after the reply), so the client reads the reply, then closes on its own.
  socket.destroySoon = () => socket.end();
}
