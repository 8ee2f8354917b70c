/** `a2a discover` and `a2a card validate | keygen | sign | verify` end to end. */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCard } from '../../src/index.js';
import type { ServeResult } from '../../src/node/index.js';
import { cli, cliJson, startDemoAgent } from './harness.js';

let agent: ServeResult;
let url: string;
let dir: string;

beforeAll(async () => {
  agent = await startDemoAgent();
  url = agent.url;
  dir = await mkdtemp(join(tmpdir(), 'a2a-cli-card-'));
});
afterAll(() => agent.close());

async function cardFile(name: string, card: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof card === 'string' ? card : JSON.stringify(card, null, 2));
  return path;
}

/** The demo's 1.0 card (it serves 0.3 too: without `A2A-Version` it answers the hybrid card). */
async function demoCardJson(): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/.well-known/agent-card.json`, {
    headers: { 'A2A-Version': '1.0' },
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('a2a discover', () => {
  it('shows the card readably, with the interface in use and the warnings', async () => {
    const { code, stdout } = await cli(['discover', url]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^a2a-kit demo agent {2}v0\.1\.0$/m);
    expect(stdout).toContain('Interfaces (in preference order)');
    expect(stdout).toMatch(/1\.\s+JSONRPC\s+A2A 1\.0\s+\S+\/a2a\/jsonrpc {2}← this client uses it/);
    expect(stdout).toMatch(/2\.\s+HTTP\+JSON\s+A2A 1\.0\s+\S+\/a2a\/rest$/m);
    expect(stdout).toMatch(/3\.\s+GRPC\s+A2A 1\.0\s+127\.0\.0\.1:\d+$/m);
    // The demo serves A2A 0.3 too (compat: ['0.3']): the 0.3 entries follow the 1.0 ones.
    expect(stdout).toMatch(/4\.\s+JSONRPC\s+A2A 0\.3\s+\S+\/a2a\/jsonrpc$/m);
    expect(stdout).toMatch(/5\.\s+HTTP\+JSON\s+A2A 0\.3\s+\S+\/a2a\/rest$/m);
    expect(stdout).toContain('streaming: yes   push notifications: yes   extended card: yes');
    expect(stdout).toContain('scheme demoToken: HTTP Bearer token');
    expect(stdout).toContain('Skills (8)');
    expect(stdout).toContain('examples: story  ·  story 5');
    expect(stdout).toContain('Warnings (1)');
    expect(stdout).toContain(
      'interfaces 1 (JSONRPC), 2 (HTTP+JSON), 4 (JSONRPC), 5 (HTTP+JSON) use http://, not https://',
    );
  });

  it('marks the forced binding and prints ProtoJSON with -o json (warnings on stderr)', async () => {
    const text = await cli(['discover', url, '--binding', 'HTTP+JSON']);
    expect(text.stdout).toMatch(/\/a2a\/rest {2}← this client uses it/);
    const { code, json, stderr } = await cliJson<AgentCard>(['discover', url]);
    expect(code).toBe(0);
    expect(json.name).toBe('a2a-kit demo agent');
    expect(json.supportedInterfaces.map((i) => [i.protocolBinding, i.protocolVersion])).toEqual([
      ['JSONRPC', '1.0'],
      ['HTTP+JSON', '1.0'],
      ['GRPC', '1.0'],
      ['JSONRPC', '0.3'],
      ['HTTP+JSON', '0.3'],
      ['GRPC', '0.3'],
    ]);
    expect(stderr).toContain(
      'warning: interfaces 1 (JSONRPC), 2 (HTTP+JSON), 4 (JSONRPC), 5 (HTTP+JSON) use http://',
    );
  });
});

describe('a2a card validate', () => {
  it('accepts a valid card file and a card URL', async () => {
    const path = await cardFile('valid.json', await demoCardJson());
    const file = await cli(['card', 'validate', path]);
    expect(file.code).toBe(0);
    expect(file.stdout).toContain('✔ valid Agent Card: a2a-kit demo agent v0.1.0');
    const remote = await cli(['card', 'validate', url]);
    expect(remote.code).toBe(0);
    expect(remote.stdout).toContain(`(${url}/.well-known/agent-card.json)`);
  });

  it('accepts the hybrid card served without A2A-Version, as a 1.0 card with 0.3 fields', async () => {
    const hybrid = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as Record<
      string,
      unknown
    >;
    expect(hybrid.protocolVersion).toBe('0.3.0'); // what 0.3 clients read
    expect(hybrid.url).toBe(`${url}/a2a/jsonrpc`);
    const { code, stdout } = await cli(['card', 'validate', await cardFile('hybrid.json', hybrid)]);
    expect(code).toBe(0);
    expect(stdout).toContain('✔ valid Agent Card: a2a-kit demo agent v0.1.0');
    // The 0.3 fields are named for what they are: unknown to a 1.0 reader, ignored by it.
    expect(stdout).toContain('unknown field "preferredTransport" (ignored by readers)');
    expect(stdout).not.toContain('speaks A2A 0.3');
  });

  it('lists every violation with its field path and exits 1', async () => {
    const card = await demoCardJson();
    const broken = {
      ...card,
      supportedInterfaces: [{ url: '', protocolBinding: 'JSONRPC' }],
      skills: [{ id: 'x', name: 'X', tags: [] }],
      capabilities: undefined,
      skils: [],
    };
    const path = await cardFile('invalid.json', broken);
    const { code, stdout } = await cli(['card', 'validate', path]);
    expect(code).toBe(1);
    expect(stdout).toContain('✘ invalid Agent Card');
    for (const field of [
      'supportedInterfaces.0.url',
      'supportedInterfaces.0.protocolVersion',
      'capabilities',
      'skills.0.description',
      'skills.0.tags',
    ]) {
      expect(stdout).toContain(`  ${field}: `);
    }
    expect(stdout).toContain('unknown field "skils"');
    const json = await cliJson<{ valid: boolean; violations: { field: string }[] }>([
      'card',
      'validate',
      path,
    ]);
    expect(json.code).toBe(1);
    expect(json.json.valid).toBe(false);
    expect(json.json.violations.map((v) => v.field)).toContain('skills.0.tags');
  });

  it('recognises a 0.3 card and refuses files that are not JSON', async () => {
    const legacy = await cardFile('legacy.json', {
      name: 'Old',
      url: 'http://x/a2a',
      version: '1',
    });
    const old = await cli(['card', 'validate', legacy]);
    expect(old.code).toBe(1);
    expect(old.stdout).toContain('this is an A2A 0.3 card');
    const notJson = await cli(['card', 'validate', await cardFile('text.json', 'hello')]);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain('is not valid JSON');
    expect((await cli(['card', 'validate', join(dir, 'missing.json')])).code).toBe(2);
  });
});

describe('a2a card keygen | sign | verify', () => {
  it('signs a card and verifies it; a changed card no longer verifies', async () => {
    const key = join(dir, 'signing.jwk');
    const keygen = await cli(['card', 'keygen', '--out', key, '--kid', 'test-key']);
    expect(keygen.code).toBe(0);
    const jwks = await cardFile('jwks.json', keygen.stdout);
    expect(JSON.parse(await readFile(jwks, 'utf8'))).toMatchObject({ keys: [{ kid: 'test-key' }] });

    const card = await cardFile('to-sign.json', await demoCardJson());
    const signed = join(dir, 'signed.json');
    expect((await cli(['card', 'sign', card, '--key', key, '--out', signed])).code).toBe(0);
    const verified = await cli(['card', 'verify', signed, '--key', jwks]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('✔ signature verified: key "test-key" (ES256)');

    const tampered = JSON.parse(await readFile(signed, 'utf8')) as Record<string, unknown>;
    tampered.name = 'Someone else';
    const bad = await cli([
      'card',
      'verify',
      await cardFile('tampered.json', tampered),
      '--key',
      jwks,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('✘ not verified');
  });

  it('needs a key to sign and trusted keys to verify (exit 2)', async () => {
    const card = await cardFile('plain.json', await demoCardJson());
    expect((await cli(['card', 'sign', card])).code).toBe(2);
    expect((await cli(['card', 'verify', card])).code).toBe(2);
  });
});
