/**
 * API keys in a query parameter and in a cookie (spec §5.5 APIKeySecurityScheme `location`): the
 * inspector reads where the card wants the key, asks for exactly that, refuses nothing itself,
 * sends the key there once given (the agent's principal proves it arrived), and never shows it:
 * not in an API answer, not in the wire view (the query parameter and the cookie are masked).
 * Real agents served by serve() on loopback, the inspector's handler called as its page calls it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userMessage } from '../../src/core/parts.js';
import { createInspector } from '../../src/inspector/handler.js';
import { serve, type ServeResult } from '../../src/node/index.js';
import { staticSecrets } from '../../src/security/auth/index.js';
import { createAgent, textOf } from '../../src/server/index.js';

const SECRET = 'key-7d1e-never-shown';

/** An agent wanting an API key at `location` under `name`, echoing who called. */
function keyedAgent(location: 'query' | 'cookie', name: string): Promise<ServeResult> {
  return serve(
    createAgent({
      card: {
        name: `Key in ${location}`,
        description: `API key in ${location}`,
        version: '1.0.0',
        securitySchemes: { key: { apiKeySecurityScheme: { location, name } } },
        securityRequirements: [{ schemes: { key: { list: [] } } }],
        skills: [{ id: 'e', name: 'E', description: 'E', tags: ['t'] }],
      },
      async *execute({ message, task, call }) {
        yield task.artifact(`${textOf(message)} from ${call.principal?.id ?? 'nobody'}`);
        yield task.completed();
      },
    }),
    {
      logger: null,
      auth: { schemes: { key: { apiKey: staticSecrets({ [SECRET]: { id: `by-${location}` } }) } } },
    },
  );
}

describe('the inspector asks for an API key where the card wants it', () => {
  let query: ServeResult;
  let cookie: ServeResult;

  beforeAll(async () => {
    [query, cookie] = await Promise.all([
      keyedAgent('query', 'api_key'),
      keyedAgent('cookie', 'a2a_session'),
    ]);
  });
  afterAll(() => Promise.all([query?.close(), cookie?.close()]));

  for (const [location, name, agent, shown] of [
    ['query', 'api_key', () => query, 'api_key=%E2%80%A2%E2%80%A2%E2%80%A2'],
    ['cookie', 'a2a_session', () => cookie, '"cookie":"•••"'],
  ] as const) {
    it(`API key in ${location} "${name}": asked for, sent there, masked on the wire`, async () => {
      const inspector = createInspector({});
      const api = async (path: string, body?: unknown) => {
        const response = await inspector.handle({
          method: body === undefined ? 'GET' : 'POST',
          url: `/api/${path}`,
          headers: new Headers({ host: '127.0.0.1:9', 'x-a2a-inspector': '1' }),
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return typeof response.body === 'string' ? response.body : '';
      };
      const connected = JSON.parse(await api('connect', { url: agent().url })) as {
        needs: { kind: string; description: string; required: boolean; fields: object[] }[];
      };
      expect(connected.needs).toEqual([
        expect.objectContaining({
          kind: 'apiKey',
          description: `API key in ${location} "${name}"`,
          required: true,
          fields: [expect.objectContaining({ name: 'value', secret: true })],
        }),
      ]);
      const send = async (text: string) =>
        JSON.parse(
          await api('call', { operation: 'sendMessage', params: { message: userMessage(text) } }),
        ) as { result?: unknown; error?: { needsAuth: boolean } };
      expect((await send('anonymous')).error?.needsAuth).toBe(true);
      await api('credentials', { scheme: 'key', fields: { value: SECRET } });
      expect(JSON.stringify((await send('keyed')).result)).toContain(`keyed from by-${location}`);
      const wire = await api('wire');
      expect(wire).toContain(shown);
      for (const answer of [wire, await api('state')]) expect(answer).not.toContain(SECRET);
    });
  }
});
