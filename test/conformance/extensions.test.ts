/** Extensions: declaration, A2A-Extensions activation and echo (spec §4.6, requirements 233–236 of test/conformance/requirements.ts). */
import { expect } from 'vitest';
import { EXT_OPTIONAL, EXT_REQUIRED, extensionAgent, scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies, verifiesServer } from '../helpers/bindings.js';
import { expectError, ok } from '../helpers/expect.js';
import { sendParams } from '../helpers/requests.js';
import { startServer, V1_CARD } from '../helpers/server.js';
import { WireAgentCard, shape, taskOf } from '../helpers/shapes.js';

const UNKNOWN = 'https://a2a-kit.test/ext/unknown/v1';

/** The activated set in a reply's A2A-Extensions header. */
function echoed(headers: Headers): string[] {
  const value = headers.get('a2a-extensions');
  return value === null
    ? []
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .sort();
}

serverSuite(
  'an agent with a required extension',
  () => startServer(extensionAgent().agent),
  (server) => {
    verifiesServer([233], 'the card declares its extensions in capabilities', async () => {
      const card = shape(
        WireAgentCard,
        await (await fetch(`${server.url}/.well-known/agent-card.json`, V1_CARD)).json(),
      );
      expect(card.capabilities.extensions?.map((e) => [e.uri, e.required ?? false])).toEqual([
        [EXT_REQUIRED, true],
        [EXT_OPTIONAL, false],
      ]);
    });

    verifies(
      [127, 236],
      'a request that does not activate the required extension fails',
      async (b) => {
        for (const header of [null, EXT_OPTIONAL, UNKNOWN]) {
          const res = await b.call('SendMessage', sendParams('echo'), {
            headers: { 'a2a-extensions': header },
          });
          expectError(res, 'EXTENSION_SUPPORT_REQUIRED');
        }
        const stream = await b.open('SendStreamingMessage', sendParams('echo'));
        expectError(stream, 'EXTENSION_SUPPORT_REQUIRED');
      },
    );

    verifies([37], 'extension URIs are case-sensitive values', async (b) => {
      const res = await b.call('SendMessage', sendParams('echo'), {
        headers: { 'a2a-extensions': EXT_REQUIRED.toUpperCase() },
      });
      expectError(res, 'EXTENSION_SUPPORT_REQUIRED');
    });

    verifies(
      [40, 234, 235, 236],
      'comma-separated extensions are activated and echoed; unknown ones are ignored',
      async (b) => {
        const res = await b.call('SendMessage', sendParams('echo ext'), {
          headers: { 'a2a-extensions': `${EXT_REQUIRED}, ${UNKNOWN},${EXT_OPTIONAL}` },
        });
        expect(taskOf(ok(res)).status.state).toBe('TASK_STATE_COMPLETED');
        expect(echoed(res.headers)).toEqual([EXT_OPTIONAL, EXT_REQUIRED].sort());
      },
    );

    verifies([235], 'a stream echoes the activated extensions too', async (b) => {
      const res = await b.stream('SendStreamingMessage', sendParams('echo'), {
        headers: { 'a2a-extensions': EXT_REQUIRED },
      });
      if (!res.ok) return expect.fail(res.error.message);
      expect(echoed(res.headers)).toEqual([EXT_REQUIRED]);
    });
  },
);

serverSuite(
  'an agent without extensions',
  () => startServer(scriptedAgent().agent),
  () => {
    verifies([190, 236], 'requested extensions are ignored and not echoed', async (b) => {
      const res = await b.call('SendMessage', sendParams('echo'), {
        headers: { 'a2a-extensions': `${EXT_REQUIRED},${UNKNOWN}` },
      });
      expect(taskOf(ok(res)).status.state).toBe('TASK_STATE_COMPLETED');
      expect(echoed(res.headers)).toEqual([]);
    });
  },
);
