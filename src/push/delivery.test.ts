import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PUSH_RETRY,
  backoffDelay,
  deliveryHeaders,
  judge,
  parseRetryAfter,
  redactUrl,
} from './delivery.js';

describe('judge', () => {
  it.each([
    [200, 'delivered'],
    [202, 'delivered'],
    [204, 'delivered'],
    [408, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [502, 'retry'],
    [503, 'retry'],
    [301, 'fail'],
    [302, 'fail'],
    [307, 'fail'],
    [400, 'fail'],
    [401, 'fail'],
    [403, 'fail'],
    [404, 'fail'],
    [410, 'fail'],
    [413, 'fail'],
  ] as const)('[143,144] HTTP %i → %s', (status, kind) => {
    expect(judge({ status }, 60_000).kind).toBe(kind);
  });

  it('says a redirect is not followed', () => {
    expect(judge({ status: 302 }, 1)).toEqual({
      kind: 'fail',
      error: 'HTTP 302: redirects are not followed',
    });
  });

  it('honours Retry-After, capped at the longest delay', () => {
    expect(judge({ status: 429, retryAfter: '2' }, 60_000)).toMatchObject({ retryAfterMs: 2_000 });
    expect(judge({ status: 503, retryAfter: '3600' }, 60_000)).toMatchObject({
      retryAfterMs: 60_000,
    });
    expect(judge({ status: 503, retryAfter: 'soon' }, 60_000)).not.toHaveProperty('retryAfterMs');
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('backoffDelay [144]', () => {
  it('grows exponentially with full jitter and stays under the ceiling', () => {
    const top = () => 0.999999;
    expect(backoffDelay(1, DEFAULT_PUSH_RETRY, top)).toBe(999);
    expect(backoffDelay(2, DEFAULT_PUSH_RETRY, top)).toBe(1_999);
    expect(backoffDelay(4, DEFAULT_PUSH_RETRY, top)).toBe(7_999);
    expect(backoffDelay(20, DEFAULT_PUSH_RETRY, top)).toBe(299_999);
    expect(backoffDelay(3, DEFAULT_PUSH_RETRY, () => 0)).toBe(0);
    const samples = Array.from({ length: 200 }, () => backoffDelay(3, DEFAULT_PUSH_RETRY));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...samples)).toBeLessThan(4_000);
    expect(new Set(samples).size).toBeGreaterThan(100);
  });
});

describe('deliveryHeaders', () => {
  it('[141,142,149] sends the content type, Authorization, token, signature and delivery id', () => {
    const headers = deliveryHeaders(
      {
        taskId: 't',
        id: 'c',
        url: 'https://x.example.com',
        token: 'tok',
        authentication: { scheme: 'Bearer', credentials: 'secret' },
      },
      'd-1',
      'jwt',
    );
    expect(headers).toMatchObject({
      'content-type': 'application/a2a+json',
      authorization: 'Bearer secret',
      'x-a2a-notification-token': 'tok',
      'x-a2a-notification-signature': 'jwt',
      'x-a2a-notification-id': 'd-1',
    });
  });

  it('omits what the config does not set', () => {
    const headers = deliveryHeaders(
      { taskId: 't', id: 'c', url: 'https://x.example.com' },
      'd',
      undefined,
    );
    expect(Object.keys(headers).sort()).toEqual([
      'content-type',
      'user-agent',
      'x-a2a-notification-id',
    ]);
  });
});

describe('redactUrl', () => {
  it('keeps origin and path only', () => {
    expect(redactUrl('https://u:p@hooks.example.com:8443/a/b?token=s#f')).toBe(
      'https://hooks.example.com:8443/a/b',
    );
    expect(redactUrl('nope')).toBe('(invalid URL)');
  });
});
