/**
 * `a2a send --quote / --max-amount` and `a2a accounting list` against a priced agent on loopback
 * (docs/extensions/accounting.md §3–§6).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amount } from '../accounting/quantities.js';
import { createAgent } from '../server/agent.js';
import { textOf } from '../core/parts.js';
import { serve, type ServeResult } from '../node/serve.js';
import { exportPrivateJwk, generateSigningKey } from '../security/signing-keys.js';
import type { CliIo } from './io.js';
import { run } from './main.js';

const key = await generateSigningKey('ES256');
const keyFile = join(mkdtempSync(join(tmpdir(), 'a2a-cli-accounting-')), 'payer.jwk');
writeFileSync(keyFile, JSON.stringify(await exportPrivateJwk(key)));

let served: ServeResult;
beforeAll(async () => {
  const agent = createAgent({
    card: {
      name: 'Priced',
      description: 'Charges per word',
      version: '1.0.0',
      skills: [{ id: 'translate', name: 'Translate', description: 'x', tags: ['translate'] }],
    },
    accounting: {
      price: { flat: amount('0.02', 'USD'), perUnit: amount('0.01', 'USD'), unit: 'word' },
      estimate: (m) => ({ durationMs: 100, units: String(textOf(m).split(' ').length) }),
      payers: { cli: key.publicKey },
    },
    async *execute({ message, task }) {
      yield task.working();
      task.usage({ units: String(textOf(message).split(' ').length), step: 'translate' });
      yield task.artifact('done');
      yield task.completed();
    },
  });
  served = await serve(agent, { logger: null });
});
afterAll(async () => {
  await served.close();
});

async function cli(args: string[]): Promise<{ code: number; stdout: string }> {
  const stdout: string[] = [];
  const io: CliIo = {
    stdout: { write: (t: string) => stdout.push(t) },
    stderr: { write: () => undefined },
    env: {},
    signal: new AbortController().signal,
  };
  const code = await run(args, io);
  return { code, stdout: stdout.join('') };
}

describe('a2a send --quote / --max-amount, a2a accounting list', () => {
  it('shows the quote and runs nothing with --quote', async () => {
    const { code, stdout } = await cli(['send', served.url, '--quote', 'hello', 'world']);
    expect(code).toBe(0);
    expect(stdout).toContain('Quote');
    expect(stdout).toContain('0.04 USD');
  });

  it('authorizes within --max-amount and prints the statement', async () => {
    const { code, stdout } = await cli([
      'send',
      served.url,
      'hello',
      'big',
      'world',
      '--max-amount',
      '0.10USD',
      '--payer-key',
      keyFile,
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('Statement');
    expect(stdout).toMatch(/charged\s+0\.05 USD · charged/);
  });

  it('does not authorize a quote above --max-amount (exit 1, nothing charged)', async () => {
    const { code, stdout } = await cli([
      'send',
      served.url,
      'a',
      'b',
      'c',
      'd',
      '--max-amount',
      '0.03USD',
      '--payer-key',
      keyFile,
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain('Not authorized');
  });

  it('lists the statements', async () => {
    const { code, stdout } = await cli(['accounting', 'list', served.url, '-o', 'json']);
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as { statements: { statement: { outcome: string } }[] };
    expect(doc.statements.map((r) => r.statement.outcome)).toEqual(['charged']);
  });
});
