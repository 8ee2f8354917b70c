/** serve({ grpc }): the gRPC binding on its own port next to the HTTP server, with one call. */
import { createServer } from 'node:net';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { GrpcTransport } from '../bindings/grpc/client.js';
import { TransportError } from '../transport/errors.js';
import { textOf, userMessage } from '../core/parts.js';
import type { AgentCard } from '../core/schemas/index.js';
import { createAgent } from '../server/agent.js';
import { serve } from './serve.js';

const agent = createAgent({
  card: {
    name: 'Echo',
    description: 'Repeats you',
    version: '1.0.0',
    skills: [{ id: 'echo', name: 'Echo', description: 'Echo text', tags: ['demo'] }],
  },
  async *execute({ message, task }) {
    yield task.artifact(`You said: ${textOf(message)}`);
    yield task.completed();
  },
});

async function cardOf(url: string): Promise<AgentCard> {
  return (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as AgentCard;
}

/** A port something else is listening on, and how to release it. */
async function busyPort(): Promise<{ port: number; release(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('serve({ grpc })', () => {
  it('[7] runs gRPC next to HTTP and lists it third in the card as host:port', async () => {
    const running = await serve(agent, { logger: null, grpc: true });
    const grpc = new GrpcTransport({ url: running.grpcUrl ?? '' });
    try {
      expect(running.grpcUrl).toMatch(/^127\.0\.0\.1:\d+$/);
      expect((await cardOf(running.url)).supportedInterfaces).toEqual([
        expect.objectContaining({ protocolBinding: 'JSONRPC' }),
        expect.objectContaining({ protocolBinding: 'HTTP+JSON' }),
        { url: running.grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0' },
      ]);
      const result = await grpc.sendMessage({ message: userMessage('hi') });
      const task = 'task' in result ? result.task : undefined;
      expect(textOf(task?.artifacts?.[0] ?? { parts: [] })).toBe('You said: hi');
    } finally {
      grpc.close();
      await running.close();
    }
  });

  it('stops the gRPC listener on close()', async () => {
    const running = await serve(agent, { logger: null, grpc: {} });
    await running.close();
    const grpc = new GrpcTransport({ url: running.grpcUrl ?? '', timeoutMs: 2000 });
    try {
      const call = grpc.getTask({ id: 'x' });
      await expect(call).rejects.toBeInstanceOf(TransportError);
      await expect(call).rejects.toMatchObject({ code: 'NETWORK' });
    } finally {
      grpc.close();
    }
  });

  it('lists no gRPC interface and has no grpcUrl without the option', async () => {
    const running = await serve(agent, { logger: null });
    try {
      expect(running.grpcUrl).toBeUndefined();
      const bindings = (await cardOf(running.url)).supportedInterfaces.map(
        (i) => i.protocolBinding,
      );
      expect(bindings).toEqual(['JSONRPC', 'HTTP+JSON']);
    } finally {
      await running.close();
    }
  });

  it('fails without listening on HTTP when the gRPC port is taken', async () => {
    const busy = await busyPort();
    const http = await busyPort();
    await http.release(); // a free port for HTTP, to check it is released again
    try {
      await expect(
        serve(agent, { logger: null, port: http.port, grpc: { port: busy.port } }),
      ).rejects.toMatchObject({
        name: 'GrpcListenError',
        message: expect.stringContaining(`cannot serve gRPC on 127.0.0.1:${busy.port}`),
        code: 'EADDRINUSE',
        port: busy.port,
      });
      const again = await serve(agent, { logger: null, port: http.port });
      await again.close();
    } finally {
      await busy.release();
    }
  });

  // Last: it swaps the module graph (a fresh copy has its own error classes).
  it('says what to install when the gRPC packages are missing', async () => {
    vi.resetModules();
    vi.doMock('../bindings/grpc/serve.js', () => {
      throw new Error("Cannot find package '@grpc/grpc-js'");
    });
    onTestFinished(() => {
      vi.doUnmock('../bindings/grpc/serve.js');
    });
    const fresh = await import('./serve.js');
    await expect(fresh.serve(agent, { logger: null, grpc: true })).rejects.toThrow(
      /^Serving gRPC needs the optional packages @grpc\/grpc-js and @grpc\/proto-loader.*install with `npm install @grpc\/grpc-js @grpc\/proto-loader`$/,
    );
  });
});
