/**
 * Fetches a DID document: an HTTPS GET through the push SSRF guard (src/push/ssrf.ts), connecting
 * to the address the guard vetted (no DNS rebinding between check and connect), the certificate
 * checked for the DID's host name against the system CAs or the `ca` given. No redirects, a
 * bounded body and a deadline: a document that cannot be had quickly and safely is not had.
 */
import { request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { WebhookGuard, WebhookRefused } from '../push/ssrf.js';
import { DidAuthError } from './errors.js';

/** How documents are fetched. */
export interface DocumentFetchOptions {
  /** Extra trusted CA certificates (PEM), e.g. a test CA; default the system CAs. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[] | undefined;
  /** Allow DID hosts on loopback (`localhost`, 127.0.0.1, ::1): tests and development only. */
  readonly allowLoopback?: boolean | undefined;
  /** Further hosts exempt from the SSRF guard (`host` or `host:port`), e.g. an intranet. */
  readonly allowHosts?: readonly string[] | undefined;
  /** Deadline of one fetch; default 5 s. */
  readonly timeoutMs?: number | undefined;
  /** Largest document accepted; default 64 KiB. */
  readonly maxBytes?: number | undefined;
}

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

/** The fetch of one document: status and body text. */
export type DocumentFetch = (url: URL) => Promise<{ status: number; body: string }>;

/** A guarded HTTPS GET for DID documents. */
export function guardedDocumentFetch(options: DocumentFetchOptions = {}): DocumentFetch {
  const guard = new WebhookGuard({
    allowHosts: [...(options.allowLoopback ? LOOPBACK : []), ...(options.allowHosts ?? [])],
  });
  const timeoutMs = options.timeoutMs ?? 5_000;
  const maxBytes = options.maxBytes ?? 64 * 1024;
  const ca = options.ca === undefined ? undefined : [options.ca].flat();
  return async (url) => {
    let target;
    try {
      guard.check(url.href);
      target = await guard.target(url);
    } catch (error) {
      if (error instanceof WebhookRefused) {
        throw new DidAuthError(
          'DID_REFUSED',
          `the DID host ${url.host} is refused: ${error.reason}`,
        );
      }
      throw unreachable(url, error);
    }
    const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
      if (lookupOptions.all) callback(null, [target]);
      else callback(null, target.address, target.family);
    };
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'GET',
          headers: { accept: 'application/did+json, application/json' },
          lookup,
          agent: false,
          timeout: timeoutMs,
          ...(ca === undefined ? {} : { ca: [...ca] }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              res.destroy();
              reject(
                new DidAuthError(
                  'INVALID_DOCUMENT',
                  `the DID document at ${url.href} is larger than ${maxBytes} bytes`,
                ),
              );
            } else chunks.push(chunk);
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', (error) => reject(unreachable(url, error)));
        },
      );
      const timer = setTimeout(
        () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      req.on('close', () => clearTimeout(timer));
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (error) => reject(unreachable(url, error)));
      req.end();
    });
  };
}

function unreachable(url: URL, error: unknown): DidAuthError {
  const why = error instanceof Error ? error.message : String(error);
  return new DidAuthError(
    'DID_UNREACHABLE',
    `the DID document at ${url.href} cannot be fetched: ${why}`,
  );
}
