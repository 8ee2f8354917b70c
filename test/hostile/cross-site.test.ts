/**
 * Hostile clients: no cross-site writes. A web page on another site can make
 * a browser send "simple" requests without a CORS preflight — text/plain or form bodies, no
 * Content-Type, no custom headers — and can choose the URL's query string. Each case below is
 * such a request, sent on loopback to an unmodified serve() with a counting agent: it must be
 * refused before anything runs, on an anonymous agent and with cookie credentials alike, over
 * JSON-RPC and HTTP+JSON. What a legitimate same-origin page or an allowed origin sends passes.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServeResult } from '../../src/node/index.js';
import { staticSecrets } from '../../src/security/auth/index.js';
import { createAgent, type AgentCardConfig } from '../../src/server/index.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One raw HTTP request (no client library adds or fixes headers). */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let executions = 0;
const baseCard: AgentCardConfig = {
  name: 'Target',
  description: 'A page elsewhere must not drive it',
  version: '1.0.0',
  capabilities: { streaming: true },
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
};
function countingAgent(card: AgentCardConfig) {
  return createAgent({
    card,
    async *execute({ task, message }) {
      executions += 1;
      if (message.parts[0]?.text === 'wait') {
        yield task.inputRequired('more');
        return;
      }
      yield task.completed('done');
    },
  });
}

const message = (text: string) => ({
  message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] },
});
const rpc = (text: string) =>
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'SendMessage', params: message(text) });
const V = { 'a2a-version': '1.0' };
const EVIL = 'https://evil.example';

/** The two JSON bindings, as a page would address them. */
const BINDINGS = [
  { name: 'JSONRPC', path: '/a2a/jsonrpc', body: rpc },
  {
    name: 'HTTP+JSON',
    path: '/a2a/rest/message:send',
    body: (t: string) => JSON.stringify(message(t)),
  },
] as const;

/** The error of a reply, in either binding's shape. */
function errorOf(reply: Reply): { code: number; message: string } {
  return (JSON.parse(reply.text) as { error: { code: number; message: string } }).error;
}

describe('no cross-site writes, anonymous agent', () => {
  let running: ServeResult;
  beforeAll(async () => {
    running = await serve(countingAgent(baseCard), {
      port: 0,
      host: '127.0.0.1',
      logger: null,
      cors: { origins: ['https://app.example'] },
    });
  });
  afterAll(async () => {
    await running.close();
  });

  for (const binding of BINDINGS) {
    describe(binding.name, () => {
      const url = () => running.url + binding.path;

      it('refuses a text/plain body (a form or no-cors fetch) with 415, running nothing', async () => {
        const before = executions;
        for (const type of [
          'text/plain',
          'text/plain;charset=UTF-8',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=b',
        ]) {
          const reply = await send(
            url(),
            'POST',
            { ...V, 'content-type': type },
            binding.body('x'),
          );
          expect(reply.status, type).toBe(415);
          expect(errorOf(reply).message).toContain('application/');
        }
        expect(executions).toBe(before);
      });

      it('refuses a body without Content-Type with 415', async () => {
        const before = executions;
        const reply = await send(url(), 'POST', { ...V }, binding.body('x'));
        expect(reply.status).toBe(415);
        expect(executions).toBe(before);
      });

      it('refuses a JSON request from a disallowed Origin with 403, running nothing', async () => {
        const before = executions;
        for (const origin of [EVIL, 'null', 'http://127.0.0.1.evil.example']) {
          const reply = await send(
            url(),
            'POST',
            { ...V, 'content-type': 'application/json', origin },
            binding.body('x'),
          );
          expect(reply.status, origin).toBe(403);
          expect(errorOf(reply).message).toContain('Cross-site request refused');
          expect(reply.headers['access-control-allow-origin']).toBeUndefined();
        }
        expect(executions).toBe(before);
      });

      it('refuses Sec-Fetch-Site: cross-site (or same-site) without an Origin', async () => {
        const before = executions;
        for (const site of ['cross-site', 'same-site']) {
          const reply = await send(
            url(),
            'POST',
            { ...V, 'content-type': 'application/json', 'sec-fetch-site': site },
            binding.body('x'),
          );
          expect(reply.status, site).toBe(403);
        }
        expect(executions).toBe(before);
      });

      it('does not take A2A-Version from the query string of a POST (spec §9.2, §11.2)', async () => {
        const before = executions;
        const reply = await send(
          `${url()}?A2A-Version=1.0`,
          'POST',
          { 'content-type': 'application/json' },
          binding.body('x'),
        );
        expect(errorOf(reply).message).toContain('Protocol version not supported');
        expect(executions).toBe(before);
      });

      it('serves its own origin, an allowed origin, and clients that are no browser', async () => {
        const before = executions;
        const json = { ...V, 'content-type': 'application/json' };
        const own = running.url; // http://127.0.0.1:PORT
        for (const extra of [
          { origin: own, 'sec-fetch-site': 'same-origin' },
          { origin: 'https://app.example', 'sec-fetch-site': 'cross-site' },
          {},
        ]) {
          const reply = await send(url(), 'POST', { ...json, ...extra }, binding.body('ok'));
          expect(reply.status, JSON.stringify(extra)).toBe(200);
        }
        expect(executions).toBe(before + 3);
      });
    });
  }

  it('HTTP+JSON: refuses a body-less cross-site cancel and push-config delete', async () => {
    const created = await send(
      `${running.url}/a2a/rest/message:send`,
      'POST',
      { ...V, 'content-type': 'application/json' },
      JSON.stringify(message('wait')),
    );
    const taskId = (JSON.parse(created.text) as { task: { id: string } }).task.id;
    const cancel = await send(`${running.url}/a2a/rest/tasks/${taskId}:cancel`, 'POST', {
      ...V,
      origin: EVIL,
    });
    expect(cancel.status).toBe(403);
    const del = await send(
      `${running.url}/a2a/rest/tasks/${taskId}/pushNotificationConfigs/c1`,
      'DELETE',
      { ...V, origin: EVIL },
    );
    expect(del.status).toBe(403);
    const task = await send(`${running.url}/a2a/rest/tasks/${taskId}`, 'GET', V);
    expect(JSON.parse(task.text)).toMatchObject({ status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
  });

  it('JSON-RPC: the refusal is a JSON-RPC error with the request id', async () => {
    const reply = await send(
      `${running.url}/a2a/jsonrpc`,
      'POST',
      { ...V, 'content-type': 'application/json', origin: EVIL },
      rpc('x'),
    );
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.text)).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -31403 },
    });
  });
});

describe('no cross-site writes with cookie credentials', () => {
  let running: ServeResult;
  beforeAll(async () => {
    running = await serve(
      countingAgent({
        ...baseCard,
        securitySchemes: {
          session: { apiKeySecurityScheme: { location: 'cookie', name: 'session' } },
        },
        securityRequirements: [{ schemes: { session: { list: [] } } }],
      }),
      {
        port: 0,
        host: '127.0.0.1',
        logger: null,
        auth: { schemes: { session: { apiKey: staticSecrets({ s3cret: { id: 'alice' } }) } } },
      },
    );
  });
  afterAll(async () => {
    await running.close();
  });

  for (const binding of BINDINGS) {
    it(`${binding.name}: a cross-site request carrying the session cookie is refused before it runs`, async () => {
      const before = executions;
      const cookie = { cookie: 'session=s3cret' };
      const forms = [
        { ...V, ...cookie, 'content-type': 'text/plain' },
        { ...V, ...cookie, 'content-type': 'application/json', origin: EVIL },
        { ...V, ...cookie, 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      ];
      for (const headers of forms) {
        const reply = await send(running.url + binding.path, 'POST', headers, binding.body('x'));
        expect([403, 415], JSON.stringify(headers)).toContain(reply.status);
      }
      expect(executions).toBe(before);
      // The same cookie from a non-browser client (or the agent's own origin) works.
      const ok = await send(
        running.url + binding.path,
        'POST',
        { ...V, ...cookie, 'content-type': 'application/json', origin: running.url },
        binding.body('x'),
      );
      expect(ok.status).toBe(200);
      expect(executions).toBe(before + 1);
    });
  }
});
