/** The demo's command line and in-process start (the bindings themselves are tested elsewhere). */
import { describe, expect, it } from 'vitest';
import { defaultGrpcPort } from './grpc.js';
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
    [['--grpc-port', '9100'], {}, { grpcPort: 9100 }],
    [['--no-grpc'], {}, { grpc: false }],
  ])('reads %j with env %j as %j', (argv, env, expected) => {
    expect(parseDemoArgs(argv, env)).toEqual(expected);
  });

  it.each([
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--grpc-port', '-1']],
    [['--grpc-port', '65536']],
    [['--nope']],
  ])('refuses %j', (argv) => {
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
      expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.url])).toEqual([
        ['JSONRPC', `${running.url}/a2a/jsonrpc`],
        ['HTTP+JSON', `${running.url}/a2a/rest`],
        ['GRPC', running.grpcUrl],
      ]);
      expect(running.grpcUrl).toMatch(/^127\.0\.0\.1:\d+$/);
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

describe('the demo over gRPC', () => {
  it('takes the HTTP port + 1 for gRPC, or any free port when HTTP takes any', () => {
    expect([defaultGrpcPort(8765), defaultGrpcPort(0), defaultGrpcPort(65535)]).toEqual([
      8766, 0, 0,
    ]);
  });

  it('serves gRPC on the port asked for, and not at all with grpc: false', async () => {
    const probe = await startDemo({ port: 0, grpc: false, logger: null });
    const free = Number(new URL(probe.url).port); // just released below: free for gRPC
    await probe.close();
    expect(probe.grpcUrl).toBeUndefined();
    const running = await startDemo({ port: 0, grpcPort: free, logger: null });
    try {
      expect(running.grpcUrl).toBe(`127.0.0.1:${free}`);
    } finally {
      await running.close();
    }
  });
});
