import { describe, expect, it } from 'vitest';
import { A2AError } from '../core/errors.js';
import { TransportError } from '../transport/errors.js';
import { retryAfterMs } from '../transport/http-exchange.js';
import { backoffDelay, isRetryable, retryDelay, sleep, withRetry } from './retry.js';

const almostOne = () => 0.999999;

describe('backoffDelay (full jitter)', () => {
  it.each([
    [1, 100],
    [2, 200],
    [3, 400],
    [4, 800],
    [5, 1000], // capped by maxDelayMs
    [12, 1000],
  ])('attempt %i stays below a cap of %i ms', (attempt, cap) => {
    const options = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(attempt, options, () => 0)).toBe(0);
    expect(backoffDelay(attempt, options, almostOne)).toBe(cap - 1);
    expect(backoffDelay(attempt, options, () => 0.5)).toBe(cap / 2);
  });

  it('spreads real random delays over the whole [0, cap) range', () => {
    const samples = Array.from({ length: 2000 }, () =>
      backoffDelay(3, { baseDelayMs: 100, maxDelayMs: 10_000 }),
    );
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...samples)).toBeLessThan(400);
    // Full jitter, not "cap ± a little": both halves of the range are used.
    expect(samples.some((s) => s < 100)).toBe(true);
    expect(samples.some((s) => s > 300)).toBe(true);
  });
});

describe('isRetryable', () => {
  it.each([
    ['NETWORK', new TransportError('NETWORK', 'x'), true],
    ['TIMEOUT', new TransportError('TIMEOUT', 'x'), true],
    ['HTTP 503', new TransportError('BAD_STATUS', 'x', { status: 503 }), true],
    ['HTTP 429', new TransportError('BAD_STATUS', 'x', { status: 429 }), true],
    ['HTTP 401', new TransportError('BAD_STATUS', 'x', { status: 401 }), false],
    ['HTTP 404', new TransportError('BAD_STATUS', 'x', { status: 404 }), false],
    ['ABORTED', new TransportError('ABORTED', 'x'), false],
    ['BAD_RESPONSE', new TransportError('BAD_RESPONSE', 'x'), false],
    ['A2A INTERNAL (5xx)', new A2AError('INTERNAL'), true],
    ['A2A TASK_NOT_FOUND', new A2AError('TASK_NOT_FOUND'), false],
    ['A2A INVALID_PARAMS', new A2AError('INVALID_PARAMS'), false],
    ['A2A UNSUPPORTED_OPERATION', new A2AError('UNSUPPORTED_OPERATION'), false],
    ['a plain Error', new Error('x'), false],
  ])('%s → %s', (_name, error, expected) => {
    expect(isRetryable(error)).toBe(expected);
  });
});

describe('retryDelay', () => {
  const network = new TransportError('NETWORK', 'down');
  it('gives up after maxAttempts', () => {
    expect(retryDelay(network, 2, { maxAttempts: 3 }, () => 0)).toBe(0);
    expect(retryDelay(network, 3, { maxAttempts: 3 }, () => 0)).toBeUndefined();
  });
  it('waits at least Retry-After', () => {
    const limited = new TransportError('BAD_STATUS', 'slow down', {
      status: 429,
      retryAfterMs: 2000,
    });
    expect(retryDelay(limited, 1, {}, () => 0)).toBe(2000);
  });
  it('stops instead of waiting for a Retry-After beyond maxRetryAfterMs', () => {
    const limited = new TransportError('BAD_STATUS', 'later', {
      status: 503,
      retryAfterMs: 120_000,
    });
    expect(retryDelay(limited, 1, { maxRetryAfterMs: 30_000 })).toBeUndefined();
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    ['3', 3000],
    ['0', 0],
    ['Wed, 01 Jan 2025 00:00:05 GMT', 5000],
    ['soon', undefined],
  ])('%s → %s', (value, expected) => {
    expect(retryAfterMs(new Headers({ 'retry-after': value }), now)).toBe(expected);
  });
});

describe('withRetry', () => {
  it('retries retryable failures with jittered delays, then succeeds', async () => {
    const delays: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async (n) => {
        calls++;
        if (n < 3) throw new TransportError('NETWORK', 'refused');
        return 'ok';
      },
      {
        policy: { baseDelayMs: 100, maxAttempts: 5 },
        random: () => 0.5,
        sleep: async (ms) => void delays.push(ms),
      },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    expect(delays).toEqual([50, 100]);
  });

  it('never retries a spec error', async () => {
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls++;
        throw new A2AError('TASK_NOT_FOUND');
      },
      { sleep: async () => undefined },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AError);
    expect(calls).toBe(1);
  });

  it('throws the last error when attempts run out', async () => {
    let calls = 0;
    const error = await withRetry(
      async (n) => {
        calls++;
        throw new TransportError('TIMEOUT', `attempt ${n}`);
      },
      { policy: { maxAttempts: 4 }, sleep: async () => undefined },
    ).catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect((error as Error).message).toBe('attempt 4');
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    const error = await withRetry(
      async () => {
        throw new TransportError('NETWORK', 'down');
      },
      {
        policy: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
        random: () => 0.99,
        signal: controller.signal,
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('ABORTED');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('sleep', () => {
  it('rejects at once when the signal is already aborted', async () => {
    await expect(sleep(10_000, AbortSignal.abort())).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
