/**
 * How the inspector starts (docs/inspector.md): off by default (`serve()` answers `/inspector`
 * with the agent's JSON 404), `a2a serve --inspector` mounts it at `/inspector` opened on the
 * demo agent, `--force-inspector` allows a non-loopback `--host`, and `a2a inspect` opens a
 * browser with `--open` only: a stand-in `xdg-open` first on PATH records what it is asked to open.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/node/index.js';
import { createAgent } from '../../src/server/index.js';
import { startCli } from '../helpers/inspect-cli.js';

const stateOf = async (inspectorUrl: string) =>
  (await (
    await fetch(`${inspectorUrl}api/state`, { headers: { 'x-a2a-inspector': '1' } })
  ).json()) as {
    target: string | null;
  };

describe('starting the inspector', () => {
  it('is off by default: serve() answers /inspector with the JSON 404 of the agent', async () => {
    const served = await serve(
      createAgent({
        card: {
          name: 'Plain',
          description: 'No inspector',
          version: '1.0.0',
          skills: [{ id: 'e', name: 'E', description: 'E', tags: ['t'] }],
        },
        async *execute({ task }) {
          yield task.completed();
        },
      }),
      { logger: null },
    );
    try {
      for (const path of ['/inspector/', '/inspector/api/state']) {
        const response = await fetch(`${served.url}${path}`, {
          headers: { 'x-a2a-inspector': '1' },
        });
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).toMatch(/json/);
      }
    } finally {
      await served.close();
    }
  });

  it('a2a serve --inspector mounts it at /inspector, opened on the demo agent; without the flag, nothing', async () => {
    const base = ['serve', '--port', '0', '--no-grpc', '--store', 'memory'];
    const on = await startCli([...base, '--inspector']);
    try {
      expect(on.json.inspector).toBe(`${on.json.url}/inspector/`);
      expect(await stateOf(on.json.inspector ?? '')).toMatchObject({ target: on.json.url });
    } finally {
      expect(await on.stop()).toBe(0);
    }
    const off = await startCli(base);
    try {
      expect(off.json.inspector).toBeUndefined();
      expect((await fetch(`${off.json.url}/inspector/api/state`)).status).toBe(404);
    } finally {
      expect(await off.stop()).toBe(0);
    }
  });

  it('a2a serve --inspector --force-inspector serves it on a non-loopback --host', async () => {
    const forced = await startCli([
      'serve',
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--no-grpc',
      '--store',
      'memory',
      '--inspector',
      '--force-inspector',
    ]);
    try {
      const port = new URL(forced.json.url ?? '').port;
      expect(await stateOf(`http://127.0.0.1:${port}/inspector/`)).toHaveProperty('target');
    } finally {
      expect(await forced.stop()).toBe(0);
    }
  });

  describe.skipIf(process.platform !== 'linux')('a2a inspect --open', () => {
    const bin = mkdtempSync(join(tmpdir(), 'a2a-fake-opener-'));
    const record = join(bin, 'opened.txt');
    let path: string | undefined;

    beforeAll(() => {
      // The desktop's opener, stood in for: it writes down the URL it was given.
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${record}'\n`);
      chmodSync(join(bin, 'xdg-open'), 0o755);
      path = process.env.PATH;
      process.env.PATH = `${bin}:${path ?? ''}`;
    });
    afterAll(() => {
      process.env.PATH = path;
    });

    const opened = async (wantedMs: number) => {
      const until = Date.now() + wantedMs;
      while (Date.now() < until && !existsSync(record)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n') : [];
    };

    it('opens nothing without --open', async () => {
      const cli = await startCli(['inspect', '--port', '0']);
      expect(cli.json.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(await opened(1500)).toEqual([]);
      expect(await cli.stop()).toBe(0);
    });

    it('opens its URL in the browser with --open', async () => {
      const cli = await startCli(['inspect', '--port', '0', '--open']);
      expect(await opened(10_000)).toEqual([cli.json.url]);
      expect(await cli.stop()).toBe(0);
    });
  });
});
