/**
 * `a2a serve --log-format json --log-level debug`: one structured line per request (operation,
 * binding, task and context ids, caller, status, duration) and per task transition, on stderr;
 * and a full run (the demo's auth flow handing out its bearer token, an authenticated
 * GetExtendedAgentCard (spec §3.1.11), the multi-turn `book` flow with a push config carrying a
 * token and credentials (spec §4.3.3), then requests refused before any operation runs (bad
 * JSON, a wrong token, an unknown method, invalid params, an unsupported A2A-Version) carrying
 * the token and push credentials) whose whole output never contains those secrets, while each
 * refused request has its line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/client/index.js';
import { userMessage } from '../../src/core/parts.js';
import { startWebhook } from '../integration/push-helpers.js';
import { cli, jsonLines } from './harness.js';

const PUSH_TOKEN = 'push-token-7f3a9c';
const PUSH_CREDENTIALS = 'push-credentials-51d0e2';
const WRONG_TOKEN = 'demo-wrong-token-c81f4b';
const REFUSED_PUSH_TOKEN = 'refused-push-token-2d9e6a';
let receiver: Awaited<ReturnType<typeof startWebhook>>;
let hookUrl = '';

beforeAll(async () => {
  receiver = await startWebhook();
  hookUrl = `${receiver.url}/hook`;
});

afterAll(() => receiver.close());

async function until(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !test(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!test()) throw new Error(`timed out waiting for ${what}`);
}

describe('a2a serve --log-format json', () => {
  it('logs each request and task transition as JSON lines and never a token or push credential', async () => {
    const stop = new AbortController();
    let url = '';
    const done = cli(
      [
        'serve',
        '--port',
        '0',
        '--no-grpc',
        '--store',
        'memory',
        '--log-format',
        'json',
        '--log-level',
        'debug',
      ],
      {
        signal: stop.signal,
        onStdout: (soFar) => (url = / on (http:\/\/\S+)/.exec(soFar)?.[1] ?? url),
      },
    );
    await until(() => url !== '', 'the server to listen');
    const anonymous = await A2AClient.connect(url);
    const asked = await anonymous.sendMessage({ message: userMessage('auth') });
    const authTask = 'task' in asked ? asked.task : undefined;
    const granted = await anonymous.sendMessage({
      message: { ...userMessage('ok'), taskId: authTask?.id, contextId: authTask?.contextId },
    });
    const token = /demo-[A-Za-z0-9_-]+/.exec(JSON.stringify(granted))?.[0] ?? '';
    expect(token).not.toBe('');
    anonymous.close();
    const client = await A2AClient.connect(url, { headers: { authorization: `Bearer ${token}` } });
    await client.getExtendedAgentCard({});
    const first = await client.sendMessage({
      message: userMessage('book'),
      configuration: {
        taskPushNotificationConfig: {
          url: hookUrl,
          token: PUSH_TOKEN,
          authentication: { scheme: 'Bearer', credentials: PUSH_CREDENTIALS },
        },
      },
    });
    const task = 'task' in first ? first.task : undefined;
    const second = await client.sendMessage({
      message: { ...userMessage('2026-12-24'), taskId: task?.id, contextId: task?.contextId },
    });
    expect('task' in second && second.task.status.state).toBe('TASK_STATE_COMPLETED');
    await until(() => receiver.calls.length >= 4, 'the push deliveries');
    // Requests refused before any operation runs, carrying the token and push credentials.
    const post = (path: string, body: string, headers: Record<string, string>) =>
      fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
        body,
      }).then((r) => r.text());
    const bearer = { authorization: `Bearer ${token}` };
    const rpc = (method: string, params: unknown) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    await post('/a2a/jsonrpc', `{"jsonrpc":"2.0","params":{"token":"${token}"`, bearer);
    await post('/a2a/jsonrpc', rpc('SendMessage', { message: userMessage('hi') }), {
      authorization: `Bearer ${WRONG_TOKEN}`,
    });
    await post('/a2a/jsonrpc', rpc('NoSuchMethod', { token }), bearer);
    await post(
      '/a2a/rest/message:send',
      JSON.stringify({
        message: { role: 'ROLE_USER' },
        configuration: {
          taskPushNotificationConfig: {
            url: hookUrl,
            token: REFUSED_PUSH_TOKEN,
            authentication: { scheme: 'Bearer', credentials: PUSH_CREDENTIALS },
          },
        },
      }),
      bearer,
    );
    await post('/a2a/rest/message:send', '{}', { ...bearer, 'a2a-version': '9.9' });
    client.close();
    stop.abort();
    const { code, stdout, stderr } = await done;
    expect(code).toBe(0);

    const lines = jsonLines(stderr);
    const requests = lines.filter((l) => l['event'] === 'a2a.request');
    const flow = requests.slice(0, -5); // the refused requests come last
    const sends = flow.filter((l) => l['operation'] === 'SendMessage');
    expect(sends).toHaveLength(4);
    for (const line of sends) {
      expect(line).toMatchObject({
        level: 'info',
        binding: expect.stringMatching(/^(JSONRPC|HTTP\+JSON)$/),
        taskId: expect.any(String),
        contextId: expect.any(String),
        status: 'OK',
        durationMs: expect.any(Number),
      });
    }
    expect(sends.slice(2).every((l) => l['caller'] === 'demo-user')).toBe(true);
    expect(flow.find((l) => l['operation'] === 'GetExtendedAgentCard')).toMatchObject({
      caller: 'demo-user',
      status: 'OK',
    });
    const transitions = lines.filter((l) => l['event'] === 'a2a.task' && l['taskId'] === task?.id);
    expect(transitions.map((l) => l['state'])).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_SUBMITTED', // the answer, recorded with the task back in SUBMITTED
      'TASK_STATE_WORKING',
      'TASK_STATE_COMPLETED',
    ]);
    expect(lines.some((l) => l['event'] === 'a2a.push')).toBe(true);
    // The refused requests have their lines too (with the caller when it was authenticated).
    const refused = requests.slice(-5).map((l) => [l['binding'], l['operation'], l['status']]);
    expect(refused).toEqual([
      ['JSONRPC', undefined, 'PARSE_ERROR'],
      ['JSONRPC', undefined, 'UNAUTHENTICATED'],
      ['JSONRPC', undefined, 'METHOD_NOT_FOUND'],
      ['HTTP+JSON', 'SendMessage', 'INVALID_PARAMS'],
      ['HTTP+JSON', 'SendMessage', 'VERSION_NOT_SUPPORTED'],
    ]);
    expect(requests.at(-1)?.['caller']).toBe('demo-user');
    // The secrets this run used appear nowhere in what it printed.
    for (const secret of [token, PUSH_TOKEN, PUSH_CREDENTIALS, WRONG_TOKEN, REFUSED_PUSH_TOKEN]) {
      expect(stderr.includes(secret), `stderr contains ${secret}`).toBe(false);
      expect(stdout.includes(secret), `stdout contains ${secret}`).toBe(false);
    }
  });

  it('refuses an unknown format or level with a usage error', async () => {
    const bad = await cli(['serve', '--port', '0', '--log-format', 'xml']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--log-format');
    const level = await cli(['serve', '--port', '0', '--log-level', 'loud']);
    expect(level.code).not.toBe(0);
    expect(level.stderr).toContain('--log-level');
  });
});
