/**
 * The fetch handler of a2a-kit/hono (`a2aFetch`) as a Cloudflare Worker in workerd, through the
 * real miniflare package: the adapter and agent bundled by rolldown into one module, served on
 * 127.0.0.1 and driven over HTTP — card URLs, both bindings and SSE. It needs the `nodejs_compat`
 * flag: core/ids.ts uses the `Buffer` global, which workerd only provides with it. The handler is
 * made on the first request, because a Worker may not start timers or draw random values in its
 * global scope (the A2AServer does both).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Log, LogLevel, Miniflare } from 'miniflare';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectCompletedStream,
  interfaceUrls,
  jsonRpcSend,
  jsonRpcStream,
  restSend,
} from '../../../test/helpers/adapter-checks.js';

const root = new URL('../../../', import.meta.url).pathname;
let mf: Miniflare;
let origin: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-workerd-'));
  const entry = join(dir, 'worker.ts');
  writeFileSync(
    entry,
    [
      `import { a2aFetch } from '${root}src/adapters/hono/index.ts';`,
      `import { echoAgent } from '${root}test/helpers/echo-agent.ts';`,
      `let handler: ((request: Request) => Promise<Response>) | undefined;`,
      `export default { fetch: (request: Request) => (handler ??= a2aFetch(echoAgent))(request) };`,
    ].join('\n'),
  );
  const bundle = await rolldown({ input: entry, platform: 'browser' });
  const { output } = await bundle.generate({ format: 'esm' });
  mf = new Miniflare({
    log: new Log(LogLevel.WARN),
    cf: false,
    modules: true,
    script: output[0].code,
    compatibilityDate: '2025-01-01',
    compatibilityFlags: ['nodejs_compat'],
    host: '127.0.0.1',
    port: 0,
  });
  origin = new URL(await mf.ready).origin;
}, 60_000);
afterAll(async () => {
  await mf?.dispose();
});

describe('a2aFetch in workerd (miniflare)', () => {
  it('serves the card, both bindings and an SSE stream', async () => {
    expect(await interfaceUrls(origin)).toEqual([`${origin}/a2a/jsonrpc`, `${origin}/a2a/rest`]);
    expect(await jsonRpcSend(origin)).toBe('TASK_STATE_COMPLETED');
    expect(await restSend(origin)).toBe('TASK_STATE_COMPLETED');
    expectCompletedStream(await jsonRpcStream(origin));
  });
});
