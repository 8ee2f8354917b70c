/** Exit codes and error messages: each failure tells the user what happened and what to do. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeResult } from '../../src/node/index.js';
import { bearerAgent, legacyAgent, plainWebServer, SECRET, type Fake } from './fake-agents.js';
import { cli, closedPort, startDemoAgent } from './harness.js';

let agent: ServeResult;
let url: string;
const fakes: Fake[] = [];

beforeAll(async () => {
  agent = await startDemoAgent();
  url = agent.url;
});
afterAll(async () => {
  await agent.close();
  for (const f of fakes) await f.close();
});

async function started(fake: Promise<Fake>): Promise<Fake> {
  const f = await fake;
  fakes.push(f);
  return f;
}

describe('transport failures (exit 3)', () => {
  it('--timeout covers the whole call, retries included, and says the task may go on', async () => {
    const started = Date.now();
    const { code, stderr } = await cli(['send', url, '--timeout', '1', 'slow', '5']);
    const elapsed = Date.now() - started;
    expect(code).toBe(3);
    expect(stderr).toMatch(
      /error: SendMessage: no reply from \S+ within 1 s \(waited [\d.]+ s, 1 attempt\); the message may have reached the agent and its task may still be running on the server/,
    );
    expect(stderr).toContain(`hint: \`a2a list ${url}\` shows recent tasks; raise --timeout`);
    // Before, each of the 3 attempts got the whole timeout (about 3.8 s in all).
    expect(elapsed).toBeLessThan(2900);
  });

  it('says an unreachable agent may not be running, and how to start one', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    for (const argv of [
      ['discover', dead],
      ['send', dead, 'hi'],
      ['list', dead],
    ]) {
      const { code, stderr } = await cli(argv);
      expect(code).toBe(3);
      expect(stderr).toContain(
        `error: cannot reach ${dead}: connection refused — is the agent running? (start one with \`a2a serve\`)`,
      );
    }
  });

  it('says a web server without an Agent Card is not an A2A agent', async () => {
    const web = await started(plainWebServer());
    const { code, stderr } = await cli(['send', web.url, 'hi']);
    expect(code).toBe(3);
    expect(stderr).toContain(
      `error: ${web.url} is not an A2A agent: no Agent Card at /.well-known/agent-card.json (HTTP 404)`,
    );
    const html = await cli(['discover', `${web.url}/page.json`]);
    expect(html.code).toBe(3);
    expect(html.stderr).toContain(
      `error: ${web.url}/page.json is not an A2A agent: ${web.url}/page.json returned an HTML page, not an agent card`,
    );
    const missing = await cli(['discover', `${web.url}/cards/agent.json`]);
    expect(missing.stderr).toContain(`no Agent Card at ${web.url}/cards/agent.json (HTTP 404)`);
  });

  it('speaks 0.3 to a 0.3-only agent and says so (this fake answers its card to every call)', async () => {
    const old = await started(legacyAgent());
    const { code, stderr } = await cli(['send', old.url, 'hi']);
    expect(code).toBe(3);
    expect(stderr).toContain(`note: speaking A2A 0.3 (JSONRPC at ${old.url}/a2a)`);
  });

  it('reports a JSON error object on stderr with -o json', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const { code, stdout, stderr } = await cli(['get', dead, 'x', '-o', 'json']);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(JSON.parse(stderr)).toMatchObject({ error: { exitCode: 3, code: 'NETWORK' } });
  });
});

describe('authentication (exit 4)', () => {
  it('asks for credentials, naming what the card declares, and uses --token', async () => {
    const guarded = await started(bearerAgent());
    const { code, stderr } = await cli(['send', guarded.url, 'hi']);
    expect(code).toBe(4);
    expect(stderr).toContain(
      'error: authentication required: pass --token or --api-key (the card declares: bearer: HTTP Bearer token)',
    );
    const wrong = await cli(['send', guarded.url, 'hi', '--token', 'nope']);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('permission denied (HTTP 403)');
    const ok = await cli(['send', guarded.url, 'hi', '--token', SECRET]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('welcome in');
    const header = await cli([
      'send',
      guarded.url,
      'hi',
      '--header',
      `Authorization=Bearer ${SECRET}`,
    ]);
    expect(header.code).toBe(0);
  });
});

describe('agent errors (exit 1)', () => {
  it('reports an unknown task with its spec code and a hint', async () => {
    const text = await cli(['get', url, 'no-such-task']);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('error: TASK_NOT_FOUND: Task no-such-task not found');
    expect(text.stderr).toContain('hint: check the task id: `a2a list <url>` shows the tasks');
    const json = await cli(['cancel', url, 'no-such-task', '-o', 'json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { code: 'TASK_NOT_FOUND', exitCode: 1 },
    });
  });
});

describe('bad usage (exit 2)', () => {
  it.each([
    [['sned', 'http://x'], 'unknown verb "sned"', 'did you mean a2a send?'],
    [['send'], 'missing the agent URL', ''],
    [['send', 'http://127.0.0.1:1'], 'nothing to send', '--data JSON'],
    [['get', 'http://127.0.0.1:1'], 'missing the task id', ''],
    [['send', 'http://x', 'hi', '--bogus'], "Unknown option '--bogus'", ''],
    [['list', 'http://x', '-o', 'xml'], '-o/--output must be text or json', ''],
    [['list', 'http://x', '--status', 'bogus'], 'unknown task state "bogus"', 'input_required'],
    [
      ['list', 'http://x', '--page-size', '500'],
      '--page-size must be a whole number from 1 to 100',
      '',
    ],
    [['send', 'http://x', '--data', '{oops'], '--data is not valid JSON', ''],
    [['send', 'http://x', '--stream', '--no-wait', 'hi'], 'cannot be combined', ''],
    [['send', 'ftp://x', 'hi'], 'is not an http(s) URL', ''],
    [['send', 'http://x', 'hi', '--timeout', '-1'], '--timeout', ''],
    [['send', 'http://x', 'hi', '--binding', 'smoke'], 'unknown binding "smoke"', 'JSONRPC'],
    [['card', 'stamp'], 'unknown card command "stamp"', 'a2a card validate'],
    [['get', 'http://x', 'a', 'b'], 'unexpected argument: b', ''],
  ])('a2a %j', async (argv, message, hint) => {
    const { code, stdout, stderr } = await cli(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).toContain(hint);
  });
});

describe('help and version', () => {
  it('teaches every verb, the global flags and the exit codes', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    for (const verb of [
      'discover',
      'send',
      'get',
      'list',
      'cancel',
      'subscribe',
      'serve',
      'demo',
      'card validate',
      'card sign',
      'card verify',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${verb}\\s+\\S`, 'm'));
    }
    for (const flag of [
      '--output',
      '--binding',
      '--header',
      '--tenant',
      '--timeout',
      '--token',
      '--api-key',
    ]) {
      expect(stdout).toContain(flag);
    }
    expect(stdout).toMatch(/^ {2}3 {3}transport failure/m);
    expect(stdout).toMatch(/^ {2}4 {3}authentication required/m);
  });

  it('shows usage, flags and real examples for one verb', async () => {
    for (const argv of [
      ['send', '--help'],
      ['help', 'send'],
    ]) {
      const { code, stdout } = await cli(argv);
      expect(code).toBe(0);
      expect(stdout).toContain('a2a send <url> <text...>');
      expect(stdout).toContain('--no-wait');
      expect(stdout).toContain('a2a send --stream http://127.0.0.1:8765 story 5');
    }
    const card = await cli(['card', 'validate', '-h']);
    expect(card.stdout).toContain('a2a card validate <file|url>');
    expect((await cli(['help', 'card', 'sign'])).stdout).toContain('--key FILE');
    const group = await cli(['card', '--help']);
    expect(group.code).toBe(0);
    expect(group.stdout).toContain('a2a card verify <file|url>');
    expect(group.stdout).toContain('a2a card keygen --out <private.jwk>');
    expect(group.stdout).toContain('`a2a card <command> --help`');
  });

  it('`a2a push --help` names its own verb (groups come from the command names)', async () => {
    const push = await cli(['push', '--help']);
    expect(push.code).toBe(0);
    expect(push.stdout).toContain('a2a push receive');
    expect(push.stdout).toContain('`a2a push <command> --help`');
    expect(push.stdout).not.toContain('a2a card');
    const missing = await cli(['push']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('use one of: a2a push receive');
  });

  it('accepts global flags before the verb', async () => {
    const { code, stdout } = await cli(['-o', 'json', '--timeout', '5', 'get', url, 'x']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
  });

  it('prints the version', async () => {
    const { code, stdout } = await cli(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('colors only on a terminal and never with NO_COLOR', async () => {
    expect((await cli(['--help'], { tty: 100 })).stdout).toContain('\x1b[1m');
    expect((await cli(['--help'], { tty: 100, env: { NO_COLOR: '1' } })).stdout).not.toContain(
      '\x1b[',
    );
    expect((await cli(['--help'])).stdout).not.toContain('\x1b[');
  });
});
