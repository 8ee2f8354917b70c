/**
 * The inspector's server side without a browser: the API refuses other sites and DNS rebinding,
 * every response carries the strict CSP, credentials never come back from the API and are masked
 * on the wire, bad input is a 400, `serve({ inspector })` is refused on a non-loopback host, and
 * `a2a inspect` listens on 127.0.0.1 and prints its URL; bodies have their secrets masked.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../cli/main.js';
import { startInspect } from '../../test/helpers/inspect-cli.js';
import { createAgent } from '../server/agent.js';
import { serve, type ServeResult } from '../node/index.js';
import { staticSecrets } from '../security/auth/index.js';
import { createInspector, type Inspector } from './handler.js';
import { INSPECTOR_CSP } from './responses.js';
import { curlOf, maskBody } from './wire-log.js';

const assets = mkdtempSync(join(tmpdir(), 'a2a-inspector-unit-'));
writeFileSync(
  join(assets, 'index.html'),
  '<!doctype html><script type="module" src="app.js"></script>',
);
writeFileSync(join(assets, 'app.js'), 'export {};');
writeFileSync(join(assets, 'app.css'), 'body{}');

const agent = createAgent({
  card: {
    name: 'Keyed',
    description: 'API key in a header',
    version: '1.0.0',
    securitySchemes: { key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } } },
    securityRequirements: [{ schemes: { key: { list: [] } } }],
    skills: [{ id: 'e', name: 'E', description: 'E', tags: ['t'] }],
  },
  async *execute({ task }) {
    yield task.completed();
  },
});

let served: ServeResult;
let inspector: Inspector;

beforeAll(async () => {
  served = await serve(agent, {
    logger: null,
    auth: { schemes: { key: { apiKey: staticSecrets({ 'secret-key-1': { id: 'k' } }) } } },
    inspector: { assetsDir: assets },
  });
  inspector = createInspector({ assetsDir: assets });
});
afterAll(() => served.close());

const text = (r: { body: unknown }) => (typeof r.body === 'string' ? r.body : '');
const api = (path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) =>
  inspector.handle({
    method: init.body === undefined ? 'GET' : 'POST',
    url: `/api/${path}`,
    headers: new Headers({ host: '127.0.0.1:9', 'x-a2a-inspector': '1', ...init.headers }),
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : JSON.stringify(init.body),
  });

describe('inspector server side', () => {
  it('refuses API calls without the inspector header or from another origin (CSRF)', async () => {
    const bare = await inspector.handle({
      method: 'GET',
      url: '/api/state',
      headers: new Headers({ host: '127.0.0.1:9' }),
    });
    expect(bare.status).toBe(403);
    const foreign = await api('state', { headers: { origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect((await api('state', { headers: { origin: 'http://127.0.0.1:9' } })).status).toBe(200);
  });

  it('answers loopback Host names only (DNS rebinding)', async () => {
    const rebound = await api('state', { headers: { host: 'attacker.example:9' } });
    expect(rebound.status).toBe(421);
  });

  it('puts the strict CSP on the page and the API', async () => {
    const page = await inspector.handle({
      method: 'GET',
      url: '/',
      headers: new Headers({ host: 'localhost:9' }),
    });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(INSPECTOR_CSP);
    expect(INSPECTOR_CSP).not.toMatch(/unsafe|https?:/);
    expect((await api('state')).headers['content-security-policy']).toBe(INSPECTOR_CSP);
  });

  it('answers bad input with 400, never a crash', async () => {
    expect((await api('connect', { body: '{not json' })).status).toBe(400);
    expect((await api('connect', { body: { url: 'ftp://x' } })).status).toBe(400);
    expect((await api('call', { body: { operation: 'deleteEverything' } })).status).toBe(400);
    expect((await api('stream', { body: { operation: 'getTask' } })).status).toBe(400);
    const early = await api('call', { body: { operation: 'getTask', params: { id: 'x' } } });
    expect(JSON.parse(text(early))).toMatchObject({ error: { kind: 'local' } });
  });

  it('asks for what the card needs, keeps the key server side and masks it on the wire (spec §5.5)', async () => {
    const connected = JSON.parse(text(await api('connect', { body: { url: served.url } }))) as {
      needs: { scheme: string; kind: string; required: boolean }[];
    };
    expect(connected.needs).toEqual([
      expect.objectContaining({ scheme: 'key', kind: 'apiKey', required: true }),
    ]);
    const refused = JSON.parse(
      text(await api('call', { body: { operation: 'listTasks', params: {} } })),
    );
    expect(refused.error.needsAuth).toBe(true);
    await api('credentials', { body: { scheme: 'key', fields: { value: 'secret-key-1' } } });
    const listed = await api('call', { body: { operation: 'listTasks', params: {} } });
    expect(JSON.parse(text(listed))).toHaveProperty('result.tasks');
    for (const path of ['state', 'wire']) {
      expect(text(await api(path))).not.toContain('secret-key-1');
    }
    expect(text(await api('wire'))).toContain('"x-api-key":"•••"');
  });

  it('mounts at /inspector beside the agent with serve({ inspector })', async () => {
    const page = await fetch(`${served.url}/inspector/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(INSPECTOR_CSP);
    expect((await fetch(`${served.url}/.well-known/agent-card.json`)).status).toBe(200);
  });

  it('refuses serve({ inspector }) on a non-loopback host unless forced', async () => {
    await expect(serve(agent, { host: '0.0.0.0', inspector: true, logger: null })).rejects.toThrow(
      /refused on host "0\.0\.0\.0"/,
    );
    const forced = await serve(agent, {
      host: '0.0.0.0',
      inspector: { allowRemote: true, assetsDir: assets },
      logger: null,
      auth: { schemes: { key: { apiKey: staticSecrets({ k: { id: 'k' } }) } } },
    });
    expect((await fetch(`${forced.url}/inspector/`)).status).toBe(200);
    await forced.close();
  });

  it('refuses a2a serve --inspector on a non-loopback --host without --force-inspector', async () => {
    let err = '';
    const io = {
      stdout: { write: () => true },
      stderr: { write: (s: string) => ((err += s), true) },
      env: {},
    };
    const code = await run(['serve', '--inspector', '--host', '0.0.0.0', '--port', '0'], io);
    expect(code).toBe(2);
    expect(err).toContain('--force-inspector');
  });

  it('a2a inspect listens on 127.0.0.1 and prints its URL, opening nothing', async () => {
    const inspect = await startInspect([served.url]);
    const { url, printed } = inspect;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(printed.target).toBe(served.url);
    const state = await fetch(`${url}api/state`, { headers: { 'x-a2a-inspector': '1' } });
    expect((await state.json()) as object).toMatchObject({ target: served.url });
    expect(await inspect.stop()).toBe(0); // stopped and closed before the next test
  });

  it('masks secrets in bodies: token responses, client secrets, push tokens', () => {
    expect(maskBody('{"access_token":"at-1","token_type":"Bearer","refresh_token":"r\\"x"}')).toBe(
      '{"access_token":"•••","token_type":"Bearer","refresh_token":"•••"}',
    );
    expect(maskBody('grant_type=client_credentials&client_secret=s3&scope=a')).toBe(
      'grant_type=client_credentials&client_secret=•••&scope=a',
    );
    expect(maskBody('{"url":"http://h/hooks/1","token":"push-tok"}')).toBe(
      '{"url":"http://h/hooks/1","token":"•••"}',
    );
    expect(curlOf('GET', 'https://a/', {}, undefined, ['--cert', '/p q/c.pem'])).toBe(
      "curl -sS --cert '/p q/c.pem' 'https://a/'",
    );
  });
});
