/**
 * GRPC out of the box: A2AClient picks a card's GRPC interface when asked (`bindings`,
 * `preferredBinding`), loading the gRPC binding only then; the default bindings stay HTTP.
 */
import { NATS_BINDING } from '../bindings/nats/wire.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import type { AgentCard, StreamResponse } from '../core/schemas/index.js';
import { serve, type ServeResult } from '../node/serve.js';
import { createAgent } from '../server/agent.js';
import { A2AClient } from './client.js';
import { DEFAULT_BINDINGS, DEFAULT_TRANSPORTS } from './default-transports.js';
import { LazyGrpcTransport } from './lazy-grpc.js';

const agent = createAgent({
  card: {
    name: 'gRPC client test agent',
    description: 'Echoes',
    version: '1.0.0',
    skills: [{ id: 'x', name: 'x', description: 'x', tags: ['test'] }],
  },
  async *execute({ message, task }) {
    yield task.working();
    yield task.artifact(`You said: ${textOf(message)}`);
    yield task.completed();
  },
});

let running: ServeResult;
let card: AgentCard;
const clients: A2AClient[] = [];

beforeAll(async () => {
  running = await serve(agent, { logger: null, grpc: true });
  card = (await (await fetch(`${running.url}/.well-known/agent-card.json`)).json()) as AgentCard;
});
afterAll(() => running.close());
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

function track(client: A2AClient): A2AClient {
  clients.push(client);
  return client;
}

/** The card with its interfaces reordered: GRPC first. */
function grpcFirst(): AgentCard {
  const sorted = [...card.supportedInterfaces].sort(
    (a, b) => Number(b.protocolBinding === 'GRPC') - Number(a.protocolBinding === 'GRPC'),
  );
  return { ...card, supportedInterfaces: sorted };
}

async function echo(client: A2AClient, text: string): Promise<string> {
  const result = await client.sendMessage({ message: userMessage(text) });
  if (!('task' in result)) throw new Error('expected a task');
  return textOf(result.task.artifacts?.[0] ?? { parts: [] });
}

describe('GRPC in DEFAULT_TRANSPORTS', () => {
  it('is a transport factory, but not a default binding', () => {
    // NATS (docs/bindings/nats.md) is opt-in the same way, under its URI.
    expect(Object.keys(DEFAULT_TRANSPORTS)).toEqual(['JSONRPC', 'HTTP+JSON', 'GRPC', NATS_BINDING]);
    expect(DEFAULT_BINDINGS).toEqual(['JSONRPC', 'HTTP+JSON']);
    const transport = DEFAULT_TRANSPORTS.GRPC?.({ url: '127.0.0.1:1' });
    expect(transport).toBeInstanceOf(LazyGrpcTransport);
    expect(transport?.binding).toBe('GRPC');
  });

  it('[21][23] connects from the card over GRPC with preferredBinding', async () => {
    const client = track(await A2AClient.connect(running.url, { preferredBinding: 'GRPC' }));
    expect(client.selectedInterface).toEqual({
      url: running.grpcUrl,
      protocolBinding: 'GRPC',
      protocolVersion: '1.0',
    });
    expect(await echo(client, 'over grpc')).toBe('You said: over grpc');
    const events: StreamResponse[] = [];
    for await (const event of client.sendStreamingMessage({ message: userMessage('stream') })) {
      events.push(event);
    }
    expect(events.at(-1)).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
    });
  });

  it('[21][22] takes the first interface in card order among the bindings asked for', async () => {
    const all = ['JSONRPC', 'HTTP+JSON', 'GRPC'];
    const ours = track(new A2AClient(card, { bindings: all }));
    expect(ours.selectedInterface.protocolBinding).toBe('JSONRPC');
    const reordered = track(new A2AClient(grpcFirst(), { bindings: all }));
    expect(reordered.selectedInterface.protocolBinding).toBe('GRPC');
    expect(await echo(reordered, 'first')).toBe('You said: first');
  });

  it('leaves GRPC out by default, even when the card lists it first', async () => {
    const client = track(new A2AClient(grpcFirst()));
    expect(client.selectedInterface.protocolBinding).toBe('JSONRPC');
    expect(await echo(client, 'http')).toBe('You said: http');
  });

  it('[25] falls back from an unreachable gRPC interface to the next one', async () => {
    const dead = { url: '127.0.0.1:1', protocolBinding: 'GRPC', protocolVersion: '1.0' };
    const http = card.supportedInterfaces.filter((i) => i.protocolBinding !== 'GRPC');
    const client = track(
      new A2AClient(
        { ...card, supportedInterfaces: [dead, ...http] },
        { bindings: ['GRPC', 'JSONRPC'], retries: { maxAttempts: 1 } },
      ),
    );
    expect(await echo(client, 'fallback')).toBe('You said: fallback');
    expect(client.selectedInterface.protocolBinding).toBe('JSONRPC');
  });

  // Last: it swaps the module graph (a fresh copy has its own error classes).
  it('says what to install when the gRPC packages are missing', async () => {
    vi.resetModules();
    vi.doMock('../bindings/grpc/client.js', () => {
      throw new Error("Cannot find package '@grpc/grpc-js'");
    });
    onTestFinished(() => {
      vi.doUnmock('../bindings/grpc/client.js');
    });
    const { LazyGrpcTransport: Fresh } = await import('./lazy-grpc.js');
    const transport = new Fresh({ url: running.grpcUrl ?? '' });
    await expect(transport.getTask({ id: 'x' })).rejects.toThrow(
      /^Calling gRPC interfaces needs the optional packages @grpc\/grpc-js and @grpc\/proto-loader.*install with `npm install @grpc\/grpc-js @grpc\/proto-loader`$/,
    );
  });
});
