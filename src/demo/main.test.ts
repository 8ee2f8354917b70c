/**
 * The demo's command line and in-process start (the bindings themselves are tested elsewhere),
 * and the toolkit it shows: push to a loopback webhook, the signed card, the extended card
 * behind the token of `auth`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCard } from '../core/schemas/index.js';
import { receivePushNotifications } from '../push/receive-server.js';
import type { VerifiedPush } from '../push/receiver.js';
import { textOf, userMessage } from '../server/index.js';
import { BINDINGS, driverFor, type Driver } from '../../test/security/fixtures/drivers.js';
import { defaultGrpcPort } from './grpc.js';
import { banner, DEFAULT_PORT, parseDemoArgs, startDemo, type DemoServer } from './main.js';

/** The 1.0 card: without A2A-Version the demo (compat: ['0.3']) serves the hybrid 0.3 card. */
const V1 = { headers: { 'A2A-Version': '1.0' } };

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
      const card = (await (
        await fetch(`${running.url}/.well-known/agent-card.json`, V1)
      ).json()) as {
        name: string;
        supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
      };
      expect(card.name).toBe('a2a-kit demo agent');
      const listed = card.supportedInterfaces.map((i) => [
        i.protocolBinding,
        i.protocolVersion,
        i.url,
      ]);
      // 1.0 first (gRPC included), then the 0.3 entries of compat: ['0.3'] (gRPC last).
      expect(listed).toEqual([
        ['JSONRPC', '1.0', `${running.url}/a2a/jsonrpc`],
        ['HTTP+JSON', '1.0', `${running.url}/a2a/rest`],
        ['GRPC', '1.0', running.grpcUrl],
        ['JSONRPC', '0.3', `${running.url}/a2a/jsonrpc`],
        ['HTTP+JSON', '0.3', `${running.url}/a2a/rest`],
        ['GRPC', '0.3', running.grpcUrl],
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

describe('the demo shows the toolkit', () => {
  let demo: DemoServer;
  const drivers: Driver[] = [];
  beforeAll(async () => {
    demo = await startDemo({ port: 0, logger: null });
  });
  afterAll(async () => {
    for (const d of drivers) d.close();
    await demo?.close();
  });
  const card = async () =>
    (await (await fetch(`${demo.url}/.well-known/agent-card.json`, V1)).json()) as AgentCard;

  it('[128] advertises push, the extended card and a signed card, and publishes both JWKS', async () => {
    const served = await card();
    expect(served.capabilities).toMatchObject({
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
    });
    expect(served.signatures).toHaveLength(1);
    expect((await fetch(`${demo.url}/.well-known/jwks.json`)).status).toBe(200);
    expect((await fetch(`${demo.url}/.well-known/a2a-push-jwks.json`)).status).toBe(200);
    expect(banner(demo)).toMatch(/webhooks on loopback .* allowed for this demo only/s);
  });

  it('pushes signed updates to a webhook on loopback (allowed for the demo only)', async () => {
    const received: VerifiedPush[] = [];
    const webhook = await receivePushNotifications({
      jwks: `${demo.url}/.well-known/a2a-push-jwks.json`,
      allowInsecure: true,
      token: 'tok',
      onEvent: (push) => void received.push(push),
    });
    try {
      await demo.server.sendMessage(
        {
          message: userMessage('echo pushed'),
          configuration: {
            taskPushNotificationConfig: { url: `${webhook.url}/hook`, token: 'tok' },
          },
        },
        {},
      );
      await expect.poll(() => received.length).toBe(3);
      expect(received.map((p) => Object.keys(p.event)[0])).toEqual([
        'statusUpdate',
        'artifactUpdate',
        'statusUpdate',
      ]);
    } finally {
      await webhook.close();
    }
  });

  it('hands out the token with `auth`; it makes the caller demo-user', async () => {
    const paused = await demo.server.sendMessage({ message: userMessage('auth') }, {});
    if (!('task' in paused)) throw new Error('expected a task');
    const done = await demo.server.sendMessage(
      { message: userMessage('signed in', { taskId: paused.task.id }) },
      {},
    );
    expect('task' in done && textOf(done.task.artifacts?.[0])).toContain(`Bearer ${demo.token}`);
  });

  it.each(BINDINGS)(
    '[217] serves the extended card (with whoami) for the token only (%s)',
    async (binding) => {
      const d = driverFor(binding, demo);
      drivers.push(d);
      expect((await d.call('GetExtendedAgentCard', {})).code).toBe('UNAUTHENTICATED');
      const wrong = await d.call('GetExtendedAgentCard', {}, { authorization: 'Bearer nope' });
      expect(wrong.code).toBe('UNAUTHENTICATED');
      const outcome = await d.call(
        'GetExtendedAgentCard',
        {},
        { authorization: `Bearer ${demo.token}` },
      );
      expect(outcome.code).toBe('OK');
      const extended = outcome.result as AgentCard;
      expect(extended.skills.map((s) => s.id)).toContain('whoami');
      expect(extended.supportedInterfaces).toEqual((await card()).supportedInterfaces);
      const who = await d.call(
        'SendMessage',
        { message: userMessage('whoami') },
        { authorization: `Bearer ${demo.token}` },
      );
      expect(JSON.stringify(who.result)).toContain('You are demo-user.');
    },
  );
});
