/**
 * The fetch handler of a2a-kit/hono (`a2aFetch`) under the real Bun runtime (the `bun` package):
 * `Bun.serve` on 127.0.0.1, driven from here over HTTP — card URLs, both bindings and SSE.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectCompletedStream,
  interfaceUrls,
  jsonRpcSend,
  jsonRpcStream,
  restSend,
} from '../../../test/helpers/adapter-checks.js';

const root = new URL('../../../', import.meta.url).pathname;
let bun: ChildProcess;
let origin: string;

beforeAll(async () => {
  const script = join(mkdtempSync(join(tmpdir(), 'a2a-bun-')), 'server.ts');
  writeFileSync(
    script,
    [
      `import { a2aFetch } from '${root}src/adapters/hono/index.ts';`,
      `import { echoAgent } from '${root}test/helpers/echo-agent.ts';`,
      `const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: a2aFetch(echoAgent, { basePath: '/a2a-bun' }) });`,
      `console.log(String(server.port));`,
    ].join('\n'),
  );
  bun = spawn(join(root, 'node_modules/.bin/bun'), ['run', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: bun.stdout! });
  const port = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    bun.once('exit', (code) => reject(new Error(`bun exited with ${code}`)));
  });
  origin = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  bun.kill();
});

describe('a2aFetch under Bun', () => {
  it('serves the card with the base path, both bindings and an SSE stream', async () => {
    const base = `${origin}/a2a-bun`;
    expect(await interfaceUrls(base)).toEqual([`${base}/a2a/jsonrpc`, `${base}/a2a/rest`]);
    expect(await jsonRpcSend(base)).toBe('TASK_STATE_COMPLETED');
    expect(await restSend(base)).toBe('TASK_STATE_COMPLETED');
    expectCompletedStream(await jsonRpcStream(base));
  });
});
