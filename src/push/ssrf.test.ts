import { describe, expect, it } from 'vitest';
import { A2AError } from '../core/errors.js';
import { WebhookGuard, WebhookRefused, type ResolvedAddress, type Resolver } from './ssrf.js';

/** A resolver answering from a table; unknown names fail like NXDOMAIN. */
function table(entries: Record<string, readonly string[]>): Resolver {
  return async (host) => {
    const found = entries[host];
    if (!found)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address): ResolvedAddress => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));
  };
}

const resolver = table({
  'hooks.example.com': ['93.184.216.34'],
  'internal.example.com': ['10.0.0.7'],
  'mixed.example.com': ['93.184.216.34', '192.168.1.20'],
  'v6.example.com': ['2606:4700::1'],
  'v6-loop.example.com': ['::1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
});

async function refusal(guard: WebhookGuard, url: string): Promise<A2AError> {
  const error = await guard.validate(url).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof A2AError)) throw new Error(`${url} was accepted`);
  return error;
}

describe('WebhookGuard at create time [147]', () => {
  const guard = new WebhookGuard({ resolver });

  it.each([
    ['http://hooks.example.com/hook', /must use https/],
    ['ftp://hooks.example.com/hook', /scheme ftp: is not https/],
    ['not a url', /not an absolute URL/],
    ['https://user:secret@hooks.example.com/', /carries credentials/],
    ['https://localhost/hook', /local host name/],
    ['https://LOCALHOST./hook', /local host name/],
    ['https://api.localhost/hook', /local host name/],
    ['https://printer.local/hook', /local host name/],
    ['https://metadata.google.internal/', /local host name/],
    ['https://router.home.arpa/', /local host name/],
    ['https://intranet/hook', /single-label/],
    ['https://127.0.0.1/hook', /loopback/],
    ['https://127.1/hook', /loopback/],
    ['https://0x7f000001/hook', /loopback/],
    ['https://2130706433/hook', /loopback/],
    ['https://[::1]/hook', /loopback/],
    ['https://[::ffff:127.0.0.1]/hook', /IPv4-mapped.*loopback/],
    ['https://[::ffff:7f00:1]/hook', /IPv4-mapped.*loopback/],
    ['https://[::127.0.0.1]/hook', /IPv4-compatible/],
    ['https://[64:ff9b::7f00:1]/hook', /NAT64.*loopback/],
    ['https://10.0.0.1/', /private/],
    ['https://172.16.5.4/', /private/],
    ['https://192.168.0.1/', /private/],
    ['https://100.64.0.1/', /CGNAT/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://[fe80::1]/', /link-local/],
    ['https://[fc00::1]/', /unique local/],
    ['https://[fd00::1]/', /unique local/],
    ['https://224.0.0.251/', /multicast/],
    ['https://[ff02::1]/', /multicast/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://[::]/', /unspecified/],
    ['https://255.255.255.255/', /broadcast/],
    ['https://192.0.2.1/', /documentation/],
    ['https://[2001:db8::1]/', /documentation/],
    ['https://internal.example.com/hook', /resolves to 10\.0\.0\.7, private/],
    ['https://mixed.example.com/hook', /resolves to 192\.168\.1\.20, private/],
    ['https://v6-loop.example.com/hook', /resolves to ::1, loopback/],
    ['https://mapped.example.com/hook', /IPv4-mapped.*loopback/],
    ['https://nat64.example.com/hook', /NAT64.*link-local/],
  ])('refuses %s with INVALID_PARAMS saying why', async (url, why) => {
    const error = await refusal(guard, url);
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.message).toMatch(why);
    expect(error.fieldViolations).toEqual([
      { field: 'url', description: expect.stringMatching(why) },
    ]);
  });

  it.each([
    'https://hooks.example.com/hook?x=1',
    'https://v6.example.com/hook',
    'https://93.184.216.34/hook',
    'https://[2606:4700::1]:8443/hook',
    // Not resolvable yet: accepted now, checked again at every delivery.
    'https://not-yet.example.com/hook',
  ])('accepts %s', async (url) => {
    await expect(guard.validate(url)).resolves.toBeUndefined();
  });
});

describe('WebhookGuard allow-list', () => {
  it('exempts an allowed host on any port, or only on the port given', async () => {
    const guard = new WebhookGuard({
      resolver,
      allowHosts: ['127.0.0.1', 'localhost:8080', '[::1]', 'internal.example.com'],
    });
    for (const url of [
      'http://127.0.0.1:4000/hook',
      'http://localhost:8080/hook',
      'http://[::1]:9/hook',
      'http://internal.example.com/hook',
    ]) {
      await expect(guard.validate(url)).resolves.toBeUndefined();
    }
    await expect(refusal(guard, 'http://localhost:8081/hook')).resolves.toBeInstanceOf(A2AError);
    await expect(refusal(guard, 'http://127.0.0.2/hook')).resolves.toBeInstanceOf(A2AError);
  });

  it('still refuses credentials in an allowed URL', async () => {
    const guard = new WebhookGuard({ allowHosts: ['127.0.0.1'] });
    await expect(refusal(guard, 'http://a:b@127.0.0.1/')).resolves.toBeInstanceOf(A2AError);
  });
});

describe('WebhookGuard at connect time [147]', () => {
  it('checks every address the name resolves to now, not when it was created', async () => {
    let answer = ['93.184.216.34'];
    const guard = new WebhookGuard({
      resolver: async () => answer.map((a) => ({ address: a, family: 4 })),
    });
    await guard.validate('https://rebind.example.com/hook');
    answer = ['127.0.0.1'];
    const url = guard.check('https://rebind.example.com/hook');
    await expect(guard.target(url)).rejects.toThrow(WebhookRefused);
    await expect(guard.target(url)).rejects.toThrow(/resolves to 127\.0\.0\.1, loopback/);
    answer = ['93.184.216.34', '::ffff:10.0.0.1'];
    await expect(guard.target(url)).rejects.toThrow(/IPv4-mapped.*private/);
    answer = ['93.184.216.35'];
    await expect(guard.target(url)).resolves.toEqual({ address: '93.184.216.35', family: 4 });
  });

  it('connects an allowed name to the address its resolver gives', async () => {
    const guard = new WebhookGuard({
      allowHosts: ['hook.test'],
      resolver: table({ 'hook.test': ['127.0.0.1'] }),
    });
    await expect(guard.target(new URL('http://hook.test:1/x'))).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
    });
  });
});
