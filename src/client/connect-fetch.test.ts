/**
 * `A2AClient.connect(url, { fetch })` uses that fetch for the card too, not only for the calls:
 * an agent served in process (no socket) is reached through it end to end.
 */
import { describe, expect, it } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import { createA2AHandler } from '../bindings/a2a-handler.js';
import { toFetchHandler } from '../http/fetch.js';
import { createAgent } from '../server/agent.js';
import { A2AServer } from '../server/a2a-server.js';
import { A2AClient } from './client.js';

const agent = createAgent({
  card: { name: 'In process', description: 'No socket', version: '1.0.0', skills: [] },
  async *execute({ message, task }) {
    yield task.artifact(`You said: ${textOf(message)}`);
    yield task.completed();
  },
});

describe('A2AClient.connect(url, { fetch })', () => {
  it('fetches the card and calls through the given fetch', async () => {
    const server = new A2AServer({ agent, logger: null });
    const baseUrl = 'http://agent.invalid'; // resolves nowhere: only the given fetch reaches it
    const handler = toFetchHandler(createA2AHandler(server, { baseUrl }));
    const seen: string[] = [];
    const inProcess: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      seen.push(new URL(request.url).pathname);
      return handler(request);
    };
    try {
      const client = await A2AClient.connect(baseUrl, { fetch: inProcess });
      expect(client.card.name).toBe('In process');
      const reply = await client.sendMessage({ message: userMessage('hi') });
      expect('task' in reply && textOf(reply.task.artifacts?.[0] ?? { parts: [] })).toBe(
        'You said: hi',
      );
      expect(seen).toEqual(['/.well-known/agent-card.json', '/a2a/jsonrpc']);
    } finally {
      await server.close();
    }
  });
});
