/**
 * `a2a audit export` / `a2a audit verify` against a served agent with audit on (docs/trust.md):
 * the round trip, every kind of tampering named (modified, dropped, reordered event, forged or
 * mismatched head signature), an export verified after the SQLite server restarted on the same
 * file, and owner isolation (a caller cannot export another caller's task).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { userMessage } from '../core/parts.js';
import { serve, type ServeResult } from '../node/serve.js';
import { chainHash, type ChainLink } from '../security/audit-chain.js';
import { staticSecrets } from '../security/auth/index.js';
import { exportPublicJwks, generateSigningKey } from '../security/signing-keys.js';
import { createAgent } from '../server/agent.js';
import { SqliteTaskStore } from '../stores/sqlite/task-store.js';
import type { CliIo } from './io.js';
import { run } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'a2a-cli-audit-'));
const key = await generateSigningKey('ES256');
const otherKey = await generateSigningKey('ES256');
const jwksFile = join(dir, 'jwks.json');
writeFileSync(jwksFile, JSON.stringify(await exportPublicJwks([key])));

const agent = createAgent({
  card: {
    name: 'Audited',
    description: 'Records what it does',
    version: '1.0.0',
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['t'] }],
  },
  async *execute({ message, task, current }) {
    yield task.working();
    task.step({ tool: 'lookup', input: { q: 'x' }, output: 'y', durationMs: 3 });
    yield task.artifact(`echo: ${message.parts.map((p) => p.text ?? '').join('')}`);
    if (current === undefined) yield task.inputRequired('more?');
    else yield task.completed();
  },
});

const auth = {
  schemes: {
    bearer: { bearer: staticSecrets({ 'tok-ann': { id: 'ann' }, 'tok-bob': { id: 'bob' } }) },
  },
};

const servers: ServeResult[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function start(path: string): Promise<ServeResult> {
  const served = await serve(agent, {
    logger: null,
    store: new SqliteTaskStore({ path }),
    audit: true,
    signCard: { key },
    auth,
  });
  servers.push(served);
  return served;
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = {
    stdout: { write: (t: string) => stdout.push(t) },
    stderr: { write: (t: string) => stderr.push(t) },
    env: {},
    signal: new AbortController().signal,
  };
  const code = await run(args, io);
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

async function send(url: string, taskId?: string): Promise<string> {
  const message = userMessage('hi', taskId === undefined ? {} : { taskId });
  const res = await fetch(`${url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      authorization: 'Bearer tok-ann',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message } }),
  });
  const body = (await res.json()) as { result: { task: { id: string } } };
  return body.result.task.id;
}

const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n');
const write = (name: string, content: string[]) => {
  const file = join(dir, name);
  writeFileSync(file, content.join('\n') + '\n');
  return file;
};

describe('a2a audit export / verify', () => {
  const path = join(dir, 'tasks.sqlite');
  let url = '';
  let taskId = '';
  const exported = join(dir, 'first.jsonl');

  it('exports the chain of a task as JSON Lines with a signed head, and verifies it offline', async () => {
    ({ url } = await start(path));
    taskId = await send(url);
    const out = await cli([
      'audit',
      'export',
      url,
      taskId,
      '--file',
      exported,
      '--token',
      'tok-ann',
    ]);
    expect(out.stderr).toContain('head signed by key');
    expect(out.code).toBe(0);
    const [header, ...rest] = lines(exported).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(header).toMatchObject({ type: 'header', format: 'a2a-kit.audit.v1', taskId });
    const head = rest.pop() as Record<string, unknown>;
    expect(head).toMatchObject({ type: 'head', taskId, seq: rest.length, kid: key.kid });
    expect(head.jku).toBe(`${url}/.well-known/jwks.json`);
    expect(rest.map((l) => l.seq)).toEqual(rest.map((_, i) => i + 1));
    // The export is the audit trail: it keeps the trajectory steps.
    expect(JSON.stringify(rest)).toContain('urn:a2a-kit:extension:trajectory:v1');

    const verified = await cli(['audit', 'verify', exported, '--key', jwksFile]);
    expect(verified.stdout).toContain('✔ chain intact');
    expect(verified.stdout).toContain('✔ head signature verified');
    expect(verified.code).toBe(0);
    const viaJwks = await cli([
      'audit',
      'verify',
      exported,
      '--jwks',
      `${url}/.well-known/jwks.json`,
      '--insecure',
      '-o',
      'json',
    ]);
    expect(JSON.parse(viaJwks.stdout)).toMatchObject({ ok: true, signature: 'verified' });
  });

  it('names a modified, dropped or reordered event, and a forged or mismatched signature (exit 1)', async () => {
    const original = lines(exported);
    const modified = original.slice();
    modified[3] = (modified[3] as string).replace('echo: hi', 'echo: HI');
    const m = await cli(['audit', 'verify', write('modified.jsonl', modified), '--key', jwksFile]);
    expect(m.code).toBe(1);
    expect(m.stdout).toContain('event seq 3 was modified');

    const dropped = original.filter((_, i) => i !== 2);
    const d = await cli(['audit', 'verify', write('dropped.jsonl', dropped)]);
    expect(d.code).toBe(1);
    expect(d.stdout).toContain('event seq 2 was dropped');

    const droppedLast = [...original.slice(0, -2), original[original.length - 1] as string];
    const dl = await cli(['audit', 'verify', write('dropped-last.jsonl', droppedLast)]);
    expect(dl.code).toBe(1);
    expect(dl.stdout).toMatch(/event seq \d+ was dropped/);

    const reordered = original.slice();
    [reordered[2], reordered[3]] = [reordered[3] as string, reordered[2] as string];
    const r = await cli(['audit', 'verify', write('reordered.jsonl', reordered)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('event seq 2 was reordered');

    // A forged head: signed by a key that is not the agent's.
    const head = JSON.parse(original[original.length - 1] as string) as { jws: string };
    const { signHead } = await import('../security/audit-head.js');
    const forged = original.slice();
    const claims = JSON.parse(
      Buffer.from(head.jws.split('.')[1] as string, 'base64url').toString(),
    ) as { taskId: string; seq: number; hash: string };
    forged[forged.length - 1] = JSON.stringify({
      ...head,
      jws: await signHead(claims, { key: otherKey.key, kid: key.kid }),
    });
    const f = await cli(['audit', 'verify', write('forged.jsonl', forged), '--key', jwksFile]);
    expect(f.code).toBe(1);
    expect(f.stdout).toContain('the head signature was rejected');

    // The whole chain rewritten after a change (every hash recomputed): only the signature tells.
    const rewritten = original.map((l) => JSON.parse(l) as Record<string, unknown>);
    let prev = '';
    for (const line of rewritten) {
      if (line.type !== 'event') continue;
      const link = line as unknown as ChainLink & Record<string, unknown>;
      if (link.seq === 3)
        line.event = JSON.parse(JSON.stringify(link.event).replace('echo: hi', 'echo: HI'));
      line.prev = prev;
      line.hash = chainHash(prev, link.seq, line.event);
      prev = line.hash as string;
    }
    (rewritten[rewritten.length - 1] as Record<string, unknown>).hash = prev;
    const rw = write(
      'rewritten.jsonl',
      rewritten.map((l) => JSON.stringify(l)),
    );
    expect((await cli(['audit', 'verify', rw])).code).toBe(0); // the chain alone is consistent
    const s = await cli(['audit', 'verify', rw, '--key', jwksFile]);
    expect(s.code).toBe(1);
    expect(s.stdout).toContain('it was rewritten');
  });

  it('refuses to export the task of another caller (TASK_NOT_FOUND, as GetTask)', async () => {
    const out = await cli(['audit', 'export', url, taskId, '--token', 'tok-bob']);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/not found/i);
  });

  it('[restart] verifies an export made after the SQLite server restarted on the same file, the chain continued', async () => {
    await servers.pop()?.close();
    ({ url } = await start(path));
    // The task continues after the restart: its chain links on from the stored head.
    expect(await send(url, taskId)).toBe(taskId);
    const after = join(dir, 'after-restart.jsonl');
    expect(
      (await cli(['audit', 'export', url, taskId, '--file', after, '--token', 'tok-ann'])).code,
    ).toBe(0);
    const verified = await cli(['audit', 'verify', after, '--key', jwksFile]);
    expect(verified.stdout).toContain('✔ chain intact');
    expect(verified.code).toBe(0);
    // The export made before the restart is a prefix of this one.
    const before = lines(exported).slice(1, -1);
    expect(lines(after).slice(1, before.length + 1)).toEqual(before);
    expect(lines(after).length).toBeGreaterThan(lines(exported).length);
  });
});
