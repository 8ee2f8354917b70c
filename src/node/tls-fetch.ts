/**
 * A fetch that presents a client certificate (mutual TLS, spec §7.4) and trusts extra CAs, over
 * node:https: Node's global fetch takes neither. The response body streams (SSE works), an abort
 * signal ends the request. The certificate, key and CAs are PEM files read once, here, in the
 * calling process (the web inspector keeps them on its server side, never in the browser).
 * {@link clientTlsPem} reads the same files for what takes PEM texts (the gRPC transport's `tls`).
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import type { ClientTlsPem } from '../transport/client-tls.js';

/** PEM files of a TLS client: any of the three (a CA alone trusts a private server CA). */
export interface ClientTlsFiles {
  /** The client certificate chain (PEM file path). */
  readonly cert?: string | undefined;
  /** Its private key (PEM file path). */
  readonly key?: string | undefined;
  /** CAs to trust for the server's certificate besides the system roots (PEM file path). */
  readonly ca?: string | undefined;
}

/** Reads and checks the files: a clear error names the one missing or holding no PEM. */
function readClientTls(files: ClientTlsFiles): { cert?: string; key?: string; ca?: string } {
  if ((files.cert === undefined) !== (files.key === undefined)) {
    throw new Error('give both the client certificate file and its private key file');
  }
  const read = (what: string, path: string | undefined) => {
    if (path === undefined) return undefined;
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new Error(`cannot read the ${what} file ${path}: ${(error as Error).message}`);
    }
  };
  const cert = read('client certificate', files.cert);
  const key = read('private key', files.key);
  const ca = read('CA', files.ca);
  if (cert !== undefined && !cert.includes('-----BEGIN CERTIFICATE-----')) {
    throw new Error(`${files.cert} holds no PEM certificate`);
  }
  if (key !== undefined && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) {
    throw new Error(`${files.key} holds no PEM private key`);
  }
  if (ca !== undefined && !ca.includes('-----BEGIN CERTIFICATE-----')) {
    throw new Error(`${files.ca} holds no PEM certificate`);
  }
  return {
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined ? { key } : {}),
    ...(ca !== undefined ? { ca } : {}),
  };
}

/**
 * The files' PEM texts for a client that takes contents (the gRPC transport's `tls`), checked as
 * {@link tlsClientFetch} checks them. The CA comes with the system roots, as that fetch trusts it.
 */
export function clientTlsPem(files: ClientTlsFiles): ClientTlsPem {
  const { cert, key, ca } = readClientTls(files);
  return {
    ...(cert !== undefined ? { cert, key } : {}),
    ...(ca !== undefined ? { ca: [ca, ...rootCertificates].join('\n') } : {}),
  };
}

/** Reads the files (a clear error names the one missing) and returns a fetch presenting them. */
export function tlsClientFetch(files: ClientTlsFiles): typeof fetch {
  const { cert, key, ca } = readClientTls(files);
  const tls = {
    ...(cert !== undefined ? { cert, key } : {}),
    // An extra CA adds to the system roots (node's `ca` alone would replace them).
    ...(ca !== undefined ? { ca: [ca, ...rootCertificates] } : {}),
  };
  return async (input, init) => {
    const req = new Request(input, init);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    const url = new URL(req.url);
    const headers: Record<string, string> = {};
    req.headers.forEach((value, name) => (headers[name] = value));
    return new Promise<Response>((resolve, reject) => {
      const options = { method: req.method, headers, signal: req.signal };
      const onResponse = (res: IncomingMessage) => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
        }
        const status = res.statusCode ?? 502;
        const empty = req.method === 'HEAD' || status === 204 || status === 304;
        if (empty) res.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status,
            statusText: res.statusMessage ?? '',
            headers: out,
          }),
        );
      };
      const outgoing =
        url.protocol === 'https:'
          ? httpsRequest(url, { ...options, ...tls }, onResponse)
          : httpRequest(url, options, onResponse);
      outgoing.on('error', (error) =>
        reject(
          req.signal.aborted
            ? req.signal.reason instanceof Error
              ? req.signal.reason
              : new DOMException('the request was aborted', 'AbortError')
            : new TypeError(`fetch failed: ${error.message}`, { cause: error }),
        ),
      );
      outgoing.end(body);
    });
  };
}
