/** Discovery: the public Agent Card, its fields and its HTTP caching (spec §8, requirements 1–17 of test/conformance/requirements.ts). */
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { BINDINGS, serverSuite, verifies, verifiesServer } from '../helpers/bindings.js';
import { expectError } from '../helpers/expect.js';
import { startServer, V1_CARD } from '../helpers/server.js';
import { WireAgentCard, shape, type WireAgentCard as Card } from '../helpers/shapes.js';
import { PROTOCOL_BINDING, mediaType } from '../helpers/wire.js';
import { isV03Binding } from '../helpers/v03-driver.js';

const CARD_PATH = '/.well-known/agent-card.json';

/** The card as a 1.0 client asks for it (see V1_CARD: the test servers serve 0.3 too). */
function getCard(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url + CARD_PATH, { headers: { ...V1_CARD.headers, ...headers } });
}

async function card(url: string): Promise<Card> {
  const response = await getCard(url);
  expect(response.status).toBe(200);
  return shape(WireAgentCard, await response.json());
}

serverSuite(
  'agent card',
  () => startServer(scriptedAgent().agent),
  (server) => {
    verifiesServer(
      [1, 2, 3, 4, 5, 12, 50],
      'the card at the well-known path has every REQUIRED field, non-empty arrays, no kind',
      async () => {
        // Discovery comes first: without A2A-Version the card is served too (the hybrid one of
        // compat: ['0.3'], whose body depends on the header: Vary says so).
        const bare = await fetch(server.url + CARD_PATH);
        expect(bare.status).toBe(200);
        expect(bare.headers.get('vary')).toMatch(/A2A-Version/i);
        const response = await getCard(server.url);
        expect(response.status).toBe(200);
        expect(['application/json', 'application/a2a+json']).toContain(
          mediaType(response.headers.get('content-type')),
        );
        const parsed = shape(WireAgentCard, await response.json());
        expect(parsed.name).toBe('Conformance agent');
        expect(parsed.provider).toEqual({
          url: 'https://a2a-kit.test',
          organization: 'a2a-kit tests',
        });
      },
    );

    verifiesServer(
      [6, 7, 9, 10],
      'supportedInterfaces names every binding with its exact string, 1.0 and its address',
      async () => {
        const { supportedInterfaces } = await card(server.url);
        for (const binding of BINDINGS) {
          // The 0.3 bindings of compat: ['0.3'] are listed once more, with protocolVersion 0.3.
          const version = isV03Binding(binding) ? '0.3' : '1.0';
          const entries = supportedInterfaces.filter(
            (i) => i.protocolBinding === PROTOCOL_BINDING[binding] && i.protocolVersion === version,
          );
          expect(entries.length, binding).toBeGreaterThan(0);
          for (const entry of entries) {
            // HTTP bindings: an absolute URL; gRPC: `host:port` (spec §5.7; proto/a2a.proto);
            // NATS: `nats://host:port/<subject>` (spec §12.7, docs/bindings/nats.md).
            if (binding === 'GRPC' || binding === 'GRPC 0.3') {
              expect(entry.url).toBe(server.running.grpcUrl);
            } else if (binding === 'NATS') expect(entry.url).toBe(server.running.natsUrl);
            else expect(new URL(entry.url).origin).toBe(server.url);
          }
        }
        const served = BINDINGS.map((b) => PROTOCOL_BINDING[b]);
        for (const entry of supportedInterfaces) expect(served).toContain(entry.protocolBinding);
      },
    );

    verifies(
      [6, 185],
      'the interface URL in the card is the endpoint of its binding',
      async (b) => {
        const { supportedInterfaces } = await card(server.url);
        const version = isV03Binding(b.name) ? '0.3' : '1.0';
        const entry = supportedInterfaces.find(
          (i) => i.protocolBinding === PROTOCOL_BINDING[b.name] && i.protocolVersion === version,
        );
        expect(entry?.url).toBe(b.endpoint);
        expectError(await b.call('GetTask', { id: 'no-such-task' }), 'TASK_NOT_FOUND');
      },
    );

    verifiesServer(
      [13],
      'capabilities state what the server does: streaming on, no push, no extended card',
      async () => {
        const { capabilities } = await card(server.url);
        expect(capabilities.streaming).toBe(true);
        expect(capabilities.pushNotifications ?? false).toBe(false);
        expect(capabilities.extendedAgentCard ?? false).toBe(false);
      },
    );

    verifiesServer([15], 'the card is sent with Cache-Control max-age', async () => {
      const response = await getCard(server.url);
      const maxAge = /max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '');
      expect(maxAge, 'Cache-Control max-age').not.toBeNull();
      expect(Number(maxAge?.[1])).toBeGreaterThan(0);
    });

    verifiesServer([16], 'the card has an ETag; If-None-Match with it gives 304', async () => {
      const first = await getCard(server.url);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^(W\/)?".+"$/);
      const again = await getCard(server.url);
      expect(again.headers.get('etag')).toBe(etag);
      const revalidated = await getCard(server.url, { 'if-none-match': etag ?? '' });
      expect(revalidated.status).toBe(304);
      expect(await revalidated.text()).toBe('');
      expect(revalidated.headers.get('etag')).toBe(etag);
      const stale = await getCard(server.url, { 'if-none-match': '"something-else"' });
      expect(stale.status).toBe(200);
    });

    verifiesServer(
      [17],
      'the card has Last-Modified; If-Modified-Since at that date gives 304',
      async () => {
        const first = await getCard(server.url);
        const lastModified = first.headers.get('last-modified');
        expect(Number.isNaN(Date.parse(lastModified ?? ''))).toBe(false);
        const revalidated = await getCard(server.url, { 'if-modified-since': lastModified ?? '' });
        expect(revalidated.status).toBe(304);
        const older = new Date(Date.parse(lastModified ?? '') - 86_400_000).toUTCString();
        expect((await getCard(server.url, { 'if-modified-since': older })).status).toBe(200);
      },
    );
  },
);
