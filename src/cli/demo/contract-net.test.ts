/** `a2a demo contract-net`: the three-translator Contract Net ends with a printed statement. */
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../io.js';
import { run } from '../main.js';

describe('a2a demo contract-net (docs/extensions/delegation.md §2)', () => {
  it('awards the cheapest, re-awards when it fails, rejects the third, prints the statement', async () => {
    const stdout: string[] = [];
    const io: CliIo = {
      stdout: { write: (t: string) => stdout.push(t) },
      stderr: { write: () => undefined },
      env: {},
      signal: new AbortController().signal,
    };
    const code = await run(['demo', 'contract-net'], io);
    const text = stdout.join('');
    expect(code).toBe(0);
    expect(text).toMatch(/award\s+Bargain Translations/);
    expect(text).toMatch(/failed\s+Bargain Translations/);
    expect(text).toMatch(/award\s+Steady Translations/);
    expect(text).toMatch(/reject\s+Express Translations: TASK_STATE_CANCELED/);
    expect(text).toContain('result   "buenos días mundo"');
    expect(text).toMatch(/charged\s+0\.07 USD · charged/);
  });
});
