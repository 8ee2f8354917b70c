/**
 * `a2a serve --exec`, `--echo` and `--proxy` (the modes the official Go CLI has, same names):
 * started through the CLI, called through the CLI and the client library over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/index.js';
import { userMessage } from '../../src/core/parts.js';
import type { ServeResult } from '../../src/node/index.js';
import { cli, startDemoAgent } from './harness.js';

/** Starts `a2a serve <argv>` in this process; its URL, everything it printed, and a stop. */
async function serving(argv: string[]) {
  const stop = new AbortController();
  let listening: (url: string) => void = () => undefined;
  const ready = new Promise<string>((resolve) => (listening = resolve));
  let printed = '';
  const done = cli(['serve', '--port', '0', ...argv], {
    signal: stop.signal,
    onStdout: (soFar) => {
      printed = soFar;
      const found = / on (http:\/\/\S+)/.exec(soFar)?.[1];
      if (found) listening(found);
    },
  });
  const url = await Promise.race([
    ready,
    done.then((r) => {
      throw new Error(`serve ended: ${r.code} ${r.stderr}`);
    }),
  ]);
  return {
    url,
    printed: () => printed,
    stop: async () => {
      stop.abort();
      return done;
    },
  };
}

describe('a2a serve --exec', () => {
  it('runs the command per message: text on stdin, stdout streamed back as chunks', async () => {
    const server = await serving(['--exec', 'tr a-z A-Z', '--name', 'Shout']);
    try {
      const sent = await cli(['send', server.url, 'hello', 'world']);
      expect(sent.code).toBe(0);
      expect(sent.stdout).toContain('HELLO WORLD');
      const card = await cli(['discover', server.url, '-o', 'json']);
      expect(JSON.parse(card.stdout)).toMatchObject({ name: 'Shout' });
      const client = await A2AClient.connect(server.url);
      const chunks: string[] = [];
      const stream = client.sendStreamingMessage({ message: userMessage('x') });
      for await (const event of stream) {
        if ('artifactUpdate' in event) {
          chunks.push(event.artifactUpdate.artifact.parts.map((p) => p.text ?? '').join(''));
        }
      }
      expect(chunks.join('')).toBe('X');
    } finally {
      const { code, stdout } = await server.stop();
      expect(code).toBe(0);
      expect(stdout).toContain('"tr a-z A-Z" as the agent Shout');
    }
  });

  it('fails the task with stderr when the command exits non-zero', async () => {
    const server = await serving(['--exec', 'echo broken >&2; exit 4']);
    try {
      const client = await A2AClient.connect(server.url);
      const reply = await client.sendMessage({ message: userMessage('x') });
      expect('task' in reply && reply.task.status.state).toBe('TASK_STATE_FAILED');
      expect(JSON.stringify(reply)).toContain('The command exited with code 4: broken');
    } finally {
      await server.stop();
    }
  });
});

describe('a2a serve --echo', () => {
  it('answers with the text it gets', async () => {
    const server = await serving(['--echo']);
    try {
      const sent = await cli(['send', server.url, 'ping']);
      expect(sent.stdout).toContain('ping');
    } finally {
      await server.stop();
    }
  });
});

describe('a2a serve --proxy', () => {
  let upstream: ServeResult;
  beforeAll(async () => {
    upstream = await startDemoAgent();
  });
  afterAll(() => upstream.close());

  it('forwards every operation to the upstream agent, under its own URLs', async () => {
    const server = await serving(['--proxy', upstream.url]);
    try {
      const card = JSON.parse((await cli(['discover', server.url, '-o', 'json'])).stdout) as {
        name: string;
        supportedInterfaces: { url: string }[];
      };
      expect(card.name).toBe((await A2AClient.connect(upstream.url)).card.name);
      expect(card.supportedInterfaces.every((i) => i.url.startsWith(server.url))).toBe(true);
      const sent = await cli(['send', server.url, 'echo', 'through', '-o', 'json']);
      const task = (JSON.parse(sent.stdout) as { task: { id: string } }).task;
      // The task lives upstream: read directly there, it is the same one.
      const direct = await A2AClient.connect(upstream.url);
      expect((await direct.getTask({ id: task.id })).id).toBe(task.id);
      const viaProxy = await A2AClient.connect(server.url);
      const streamed: string[] = [];
      for await (const event of viaProxy.sendStreamingMessage({
        message: userMessage('story 2'),
      })) {
        streamed.push(Object.keys(event)[0] as string);
      }
      expect(streamed[0]).toBe('task');
      expect(streamed.at(-1)).toBe('statusUpdate');
      const missing = await cli(['get', server.url, 'no-such-task']);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toMatch(/not found/i);
    } finally {
      const { code, stderr } = await server.stop();
      expect(code).toBe(0);
      // Each forwarded call is logged on stderr (not with --quiet).
      expect(stderr).toMatch(/SendMessage \d+ ms/);
      expect(stderr).toMatch(/GetTask \d+ ms, TASK_NOT_FOUND/);
    }
  });

  it('refuses two modes at once', async () => {
    const both = await cli(['serve', '--echo', '--proxy', upstream.url]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--echo and --proxy cannot be combined');
  });

  it('refuses --bus: a gateway keeps no tasks (the other modes honour it, test/integration/nats-serve.test.ts)', async () => {
    const refused = await cli(['serve', '--proxy', upstream.url, '--bus', 'nats://127.0.0.1:1']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--bus does not apply to --proxy');
  });
});
