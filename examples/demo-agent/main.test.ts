/** The demo's command line and in-process start (the bindings themselves are tested elsewhere). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PORT, parseDemoArgs, startDemo } from './main.js';

describe('parseDemoArgs', () => {
  it.each([
    [[], {}, {}],
    [['--port', '9000'], {}, { port: 9000 }],
    [['--port=0'], {}, { port: 0 }],
    [[], { PORT: '8799' }, { port: 8799 }],
    [['--port', '9000'], { PORT: '8799' }, { port: 9000 }],
    [
      ['--host', '0.0.0.0', '--public-url', 'https://agent.example.com'],
      {},
      { host: '0.0.0.0', publicUrl: 'https://agent.example.com' },
    ],
  ])('reads %j with env %j as %j', (argv, env, expected) => {
    expect(parseDemoArgs(argv, env)).toEqual(expected);
  });

  it.each([[['--port', 'abc']], [['--port', '70000']], [['--nope']]])('refuses %j', (argv) => {
    expect(() => parseDemoArgs(argv, {})).toThrow();
  });

  it('answers --help', () => {
    expect(parseDemoArgs(['--help'], {})).toBe('help');
  });
});

describe('startDemo', () => {
  it('serves the demo card and answers a message over HTTP+JSON', async () => {
    expect(DEFAULT_PORT).toBe(8765);
    const running = await startDemo({ port: 0, logger: null });
    try {
      const card = (await (await fetch(`${running.url}/.well-known/agent-card.json`)).json()) as {
        name: string;
        supportedInterfaces: { url: string; protocolBinding: string }[];
      };
      expect(card.name).toBe('a2a-kit demo agent');
      expect(card.supportedInterfaces.map((i) => i.url)).toEqual([
        `${running.url}/a2a/jsonrpc`,
        `${running.url}/a2a/rest`,
      ]);
      const reply = await fetch(`${running.url}/a2a/rest/message:send`, {
        method: 'POST',
        headers: { 'A2A-Version': '1.0', 'Content-Type': 'application/json' },
        body: JSON.stringify({
          message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'echo hi' }] },
        }),
      });
      const body = (await reply.json()) as { task: { artifacts: { parts: { text: string }[] }[] } };
      expect(body.task.artifacts[0]?.parts[0]?.text).toBe('You said: hi');
    } finally {
      await running.close();
    }
  });
});
