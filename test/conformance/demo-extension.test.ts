/**
 * The demo agent's timing extension (src/demo/timing-extension.ts), over every binding: declared
 * in the card, activated by `A2A-Extensions` (echoed back), artifacts carry the metadata only
 * when activated (spec §4.6, requirements 233–235 of test/conformance/requirements.ts).
 */
import { expect } from 'vitest';
import { createDemoAgent } from '../../src/demo/agent.js';
import { TIMING_EXTENSION } from '../../src/demo/timing-extension.js';
import { serverSuite, verifies, verifiesServer } from '../helpers/bindings.js';
import { ok } from '../helpers/expect.js';
import { sendParams } from '../helpers/requests.js';
import { startServer, V1_CARD } from '../helpers/server.js';
import { taskOf } from '../helpers/shapes.js';

serverSuite(
  'the demo agent declares and honours its timing extension',
  () => startServer(createDemoAgent()),
  (server) => {
    verifiesServer([233], 'the card declares the extension, not required', async () => {
      const card = (await (
        await fetch(`${server.url}/.well-known/agent-card.json`, V1_CARD)
      ).json()) as {
        capabilities: { extensions?: { uri: string; required?: boolean }[] };
      };
      expect(card.capabilities.extensions).toContainEqual(
        expect.objectContaining({ uri: TIMING_EXTENSION, required: false }),
      );
    });

    verifies([234, 235], 'activated, every artifact carries the elapsed time', async (b) => {
      const reply = await b.call('SendMessage', sendParams('echo timed'), {
        headers: { 'a2a-extensions': TIMING_EXTENSION },
      });
      const task = taskOf(ok(reply));
      const metadata = task.artifacts?.[0]?.metadata;
      expect(metadata?.[TIMING_EXTENSION]).toEqual({ elapsedMs: expect.any(Number) });
    });

    verifies([235], 'not activated, artifacts carry no timing', async (b) => {
      const task = taskOf(ok(await b.call('SendMessage', sendParams('echo plain'))));
      const metadata = task.artifacts?.[0]?.metadata;
      expect(metadata?.[TIMING_EXTENSION]).toBeUndefined();
    });
  },
);
