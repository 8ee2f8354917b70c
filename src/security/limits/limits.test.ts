import { describe, expect, it } from 'vitest';
import { capHistory } from './message-limits.js';
import { ConcurrencyLimiter, RateLimiter } from './rate-limit.js';
import { peerAddress } from '../../bindings/grpc/auth-gate.js';

describe('RateLimiter', () => {
  it('allows a burst, then one request per refill interval, and says how long to wait', () => {
    let now = 0;
    const limiter = new RateLimiter({ requests: 2, windowSeconds: 10, burst: 3, now: () => now });
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, true]);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 5 });
    now += 5_000;
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('b').allowed).toBe(true);
  });

  it('forgets the least recently seen key beyond maxKeys (it starts full again)', () => {
    const limiter = new RateLimiter({ requests: 1, maxKeys: 2, now: () => 0 });
    limiter.take('a');
    limiter.take('b');
    limiter.take('c'); // evicts a
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('c').allowed).toBe(false);
  });

  it('rejects nonsense settings', () => {
    expect(() => new RateLimiter({ requests: 0 })).toThrow(RangeError);
  });
});

describe('ConcurrencyLimiter', () => {
  it('counts slots per key; a release frees exactly one, once', () => {
    const limiter = new ConcurrencyLimiter(2);
    const one = limiter.acquire('k');
    const two = limiter.acquire('k');
    expect(limiter.acquire('k')).toBeUndefined();
    one?.();
    one?.();
    expect(limiter.count('k')).toBe(1);
    expect(limiter.acquire('k')).toBeDefined();
    two?.();
  });
});

describe('capHistory', () => {
  const task = { id: 't', history: [1, 2, 3, 4] };
  it('keeps the newest messages of every result shape', () => {
    expect(capHistory(task, 2, 'GetTask')).toEqual({ id: 't', history: [3, 4] });
    expect(capHistory({ task }, 1)).toEqual({ task: { id: 't', history: [4] } });
    expect(capHistory({ tasks: [task, { id: 'u' }] }, 3, 'ListTasks')).toEqual({
      tasks: [{ id: 't', history: [2, 3, 4] }, { id: 'u' }],
    });
  });

  it('returns the same object when nothing is cut', () => {
    expect(capHistory(task, 4, 'GetTask')).toBe(task);
    const message = { message: { messageId: 'm' } };
    expect(capHistory(message, 0)).toBe(message);
  });
});

describe('peerAddress', () => {
  it('reads the IP of grpc-js peer strings', () => {
    expect(peerAddress('ipv4:127.0.0.1:5000')).toBe('127.0.0.1');
    expect(peerAddress('ipv6:[::1]:5000')).toBe('::1');
    expect(peerAddress('10.0.0.1:1')).toBe('10.0.0.1');
  });
});
