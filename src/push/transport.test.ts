import { afterEach, describe, expect, it } from 'vitest';
import { startWebhook } from '../../test/integration/push-helpers.js';
import { WebhookGuard, WebhookRefused } from './ssrf.js';
import { TransportFailure, fetchTransport, guardedTransport } from './transport.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const body = new TextEncoder().encode('{"x":1}');
const send = (url: string, headers: Record<string, string> = {}, timeoutMs = 2_000) => ({
  url: new URL(url),
  headers: { 'content-type': 'application/a2a+json', ...headers },
  body,
  timeoutMs,
  signal: new AbortController().signal,
});

describe('guarded transport', () => {
  it('POSTs the exact body and returns status and Retry-After', async () => {
    const hook = await startWebhook(() => ({ status: 503, headers: { 'retry-after': '7' } }));
    const transport = guardedTransport(new WebhookGuard({ allowHosts: ['127.0.0.1'] }));
    closers.push(
      () => hook.close(),
      () => transport.close(),
    );
    await expect(transport(send(`${hook.url}/p`))).resolves.toEqual({
      status: 503,
      retryAfter: '7',
    });
    expect(hook.calls[0]).toMatchObject({ path: '/p', body: '{"x":1}' });
    expect(hook.calls[0]?.headers['content-length']).toBe(String(body.byteLength));
  });

  it('refuses header values with line breaks as a permanent failure', async () => {
    const hook = await startWebhook();
    const transport = guardedTransport(new WebhookGuard({ allowHosts: ['127.0.0.1'] }));
    closers.push(
      () => hook.close(),
      () => transport.close(),
    );
    const error = await transport(
      send(hook.url, { 'x-a2a-notification-token': 'a\r\nb: c' }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportFailure);
    expect((error as TransportFailure).kind).toBe('invalid');
    expect(hook.calls).toEqual([]);
  });

  it('refuses a loopback URL that is not allow-listed before connecting', async () => {
    const hook = await startWebhook();
    const transport = guardedTransport(new WebhookGuard());
    closers.push(
      () => hook.close(),
      () => transport.close(),
    );
    const url = `https://127.0.0.1:${hook.port}/`;
    await expect(transport(send(url))).rejects.toBeInstanceOf(WebhookRefused);
    expect(hook.calls).toEqual([]);
  });

  it('aborts a request in flight when told to', async () => {
    const hook = await startWebhook(() => 'hang');
    const transport = guardedTransport(new WebhookGuard({ allowHosts: ['127.0.0.1'] }));
    closers.push(
      () => hook.close(),
      () => transport.close(),
    );
    const abort = new AbortController();
    const pending = transport({ ...send(hook.url), signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('fetch transport', () => {
  it('vets the URL first and does not follow redirects', async () => {
    const target = await startWebhook();
    const hook = await startWebhook(() => ({ status: 307, headers: { location: target.url } }));
    closers.push(
      () => hook.close(),
      () => target.close(),
    );
    const transport = fetchTransport(fetch, new WebhookGuard({ allowHosts: ['127.0.0.1'] }));
    await expect(transport(send(hook.url))).resolves.toMatchObject({ status: 307 });
    expect(target.calls).toEqual([]);
    const strict = fetchTransport(fetch, new WebhookGuard());
    await expect(strict(send(`https://127.0.0.1:${hook.port}/`))).rejects.toBeInstanceOf(
      WebhookRefused,
    );
  });

  it('reports a timeout', async () => {
    const hook = await startWebhook(() => 'hang');
    closers.push(() => hook.close());
    const transport = fetchTransport(fetch, new WebhookGuard({ allowHosts: ['127.0.0.1'] }));
    await expect(transport(send(hook.url, {}, 100))).rejects.toMatchObject({ kind: 'timeout' });
  });
});
