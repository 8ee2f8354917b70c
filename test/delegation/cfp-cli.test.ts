/** `a2a cfp` against two priced contractors on loopback (docs/extensions/delegation.md §2). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeResult } from 'a2a-kit/node';
import { exportPrivateJwk, generateSigningKey } from 'a2a-kit/security';
import { run } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { startContractor } from './contractors.js';

const key = await generateSigningKey('ES256');
const dir = mkdtempSync(join(tmpdir(), 'a2a-cfp-'));
const keyFile = join(dir, 'payer.jwk');
writeFileSync(keyFile, JSON.stringify(await exportPrivateJwk(key)));
const servers: ServeResult[] = [];

beforeAll(async () => {
  servers.push(
    await startContractor({ name: 'dear', price: '0.09', estimateMs: 100 }, { cli: key.publicKey }),
  );
  servers.push(
    await startContractor(
      { name: 'cheap', price: '0.04', estimateMs: 900 },
      { cli: key.publicKey },
    ),
  );
  writeFileSync(join(dir, 'agents.json'), JSON.stringify(servers.map((s) => s.url)));
});
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe('a2a cfp', () => {
  it('shows bids, the award to the cheapest, the rejection and the statement', async () => {
    const stdout: string[] = [];
    const io: CliIo = {
      stdout: { write: (t: string) => stdout.push(t) },
      stderr: { write: () => undefined },
      env: {},
      signal: new AbortController().signal,
    };
    const code = await run(
      [
        'cfp',
        '--skill',
        'translate',
        '--agents',
        join(dir, 'agents.json'),
        '--deadline',
        '5s',
        '--payer-key',
        keyFile,
        'hola mundo',
      ],
      io,
    );
    const text = stdout.join('');
    expect(code).toBe(0);
    expect(text).toMatch(/bid\s+dear: 0\.09 USD/);
    expect(text).toMatch(/award\s+cheap \(cap 0\.04 USD\)/);
    expect(text).toMatch(/reject\s+dear: TASK_STATE_CANCELED/);
    expect(text).toMatch(/charged\s+0\.04 USD · charged/);
  });
});
