/**
 * A client that keeps sending past the body limit (spec §13.4, requirement 205 of test/conformance/requirements.ts) reads the refusal:
 * the server answers 413 (HTTP+JSON) or -32600 with an ErrorInfo naming PAYLOAD_TOO_LARGE
 * (JSON-RPC), then drains what the client still sends, up to a bound, before it closes, so the
 * client sees the answer instead of EPIPE or a connection reset. A client that sends far more than
 * the bound is cut off. Loopback only, bounded in bytes; nothing is timed.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServeResult } from '../../src/node/index.js';
import { createAgent } from '../../src/server/index.js';

const LIMIT = 1000;
/**
 * More than loopback's socket buffers hold (a few MiB), so the client cannot finish sending unless
 * the server reads; within the drain bound the server is given.
 */
const EXCESS = 32 * 1024 * 1024;
const DRAIN = 64 * 1024 * 1024;
const agent = createAgent({
  card: {
    name: 'Small',
    description: 'Small bodies only',
    version: '1.0.0',
    skills: [{ id: 's', name: 'S', description: 'Nothing', tags: ['t'] }],
  },
  async *execute({ task }) {
    yield task.completed();
  },
});

let running: ServeResult;
let port: number;
beforeAll(async () => {
  running = await serve(agent, {
    logger: null,
    maxBodyBytes: LIMIT,
    connections: { maxDrainBytes: DRAIN },
  });
  port = Number(new URL(running.url).port);
});
afterAll(() => running?.close());

interface Exchange {
  /** Everything the server sent. */
  readonly reply: string;
  /** The socket error the client saw, if any (EPIPE, ECONNRESET). */
  readonly error: string | undefined;
  /** True when the whole reply (headers and its Content-Length of body) had arrived. */
  readonly complete: boolean;
  /** Bytes of body the client managed to send. */
  readonly sent: number;
}

/** The head and body of a raw HTTP reply, once complete. */
function parseReply(text: string): { head: string; body: string } | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const head = text.slice(0, end);
  const length = /content-length: (\d+)/i.exec(head);
  const body = text.slice(end + 4);
  if (length === null || Buffer.byteLength(body) < Number(length[1])) return undefined;
  return { head, body };
}

/**
 * Sends `head`, then writes body chunks as fast as the socket takes them, without ever waiting for
 * a reply, until `total` bytes are out or the connection fails. `readAfter`: like simple clients,
 * read nothing until everything is sent; else read the reply meanwhile.
 */
function flood(
  head: string,
  total: number,
  chunked: boolean,
  readAfter = false,
): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let reply = '';
    let error: string | undefined;
    let sent = 0;
    let completeBeforeError = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      reply += chunk;
      if (error === undefined && parseReply(reply) !== undefined) completeBeforeError = true;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => resolve({ reply, error, complete: completeBeforeError, sent }));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const frame = (data: Buffer) =>
      chunked
        ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')])
        : data;
    const pump = () => {
      while (sent < total && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(frame(chunk))) {
          socket.once('drain', pump);
          return;
        }
      }
      if (socket.destroyed) return;
      if (chunked) socket.write('0\r\n\r\n');
      socket.end();
      socket.resume();
    };
    if (readAfter) socket.pause();
    socket.on('connect', () => {
      socket.write(head);
      pump();
    });
  });
}

const headers = (path: string, framing: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
  `A2A-Version: 1.0\r\n${framing}\r\n\r\n`;

describe('[205] a 413 that arrives', () => {
  const cases = [
    { name: 'HTTP+JSON, declared length', path: '/a2a/rest/message:send', chunked: false },
    { name: 'HTTP+JSON, chunked', path: '/a2a/rest/message:send', chunked: true },
    { name: 'JSON-RPC, declared length', path: '/a2a/jsonrpc', chunked: false },
    { name: 'JSON-RPC, chunked', path: '/a2a/jsonrpc', chunked: true },
  ];
  const modes = [
    { readAfter: true, how: 'reads only once all is sent' },
    { readAfter: false, how: 'reads while sending' },
  ];
  for (const { name, path, chunked } of cases) {
    for (const { readAfter, how } of modes) {
      it(`is read by a client that sends 32 MiB past the limit and ${how} (${name})`, async () => {
        const total = EXCESS;
        const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${total}`;
        const exchange = await flood(headers(path, framing), total, chunked, readAfter);
        expect(exchange.error).toBeUndefined();
        expect(exchange.complete).toBe(true);
        const reply = parseReply(exchange.reply);
        expect(reply?.head).toMatch(/connection: close/i);
        if (path.endsWith('jsonrpc')) {
          const body = JSON.parse(reply?.body ?? '') as {
            error: { code: number; message: string; data?: Record<string, unknown>[] };
          };
          expect(body.error.code).toBe(-32600);
          expect(body.error.message).toContain(`limit of ${LIMIT} bytes`);
          expect(body.error.data).toContainEqual(
            expect.objectContaining({
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'PAYLOAD_TOO_LARGE',
              metadata: { maxBodyBytes: String(LIMIT) },
            }),
          );
        } else {
          expect(reply?.head).toMatch(/^HTTP\/1\.1 413 /);
          expect(reply?.body).toContain('"status":"RESOURCE_EXHAUSTED"');
          expect(reply?.body).toContain('PAYLOAD_TOO_LARGE');
        }
      });
    }
  }

  it('cuts off a client that sends far more than the drain bound', async () => {
    const total = 4 * DRAIN; // never sent in full: the server closes first
    const exchange = await flood(
      headers('/a2a/rest/message:send', `Content-Length: ${total}`),
      total,
      false,
    );
    expect(exchange.sent).toBeLessThan(total);
    expect(exchange.reply).toMatch(/^HTTP\/1\.1 413 /);
  });
});
