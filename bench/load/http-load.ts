/** Fixed-duration HTTP load with autocannon (one process, one event loop). */
import autocannon from 'autocannon';
import { nextMessageId } from './sse-load.js';

const ID = '[<id>]';

/** One autocannon run. */
export interface HttpLoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** The first `[<id>]` in the body is replaced by a fresh id per request. */
  body?: string | undefined;
  connections: number;
  durationSec: number;
}

/** What one run measured. */
export interface HttpLoadResult {
  rps: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  requests: number;
  /** Connection errors, timeouts and non-2xx answers. */
  failures: number;
}

/** Runs autocannon against one URL. */
export async function httpLoad(spec: HttpLoadSpec): Promise<HttpLoadResult> {
  const options: autocannon.Options = {
    url: spec.url,
    method: spec.method,
    headers: spec.headers,
    connections: spec.connections,
    duration: spec.durationSec,
    timeout: 30,
  };
  const template = spec.body;
  if (template?.includes(ID) === true) {
    // Our own replacement: autocannon's idReplacement assumes a fixed id length and sends a
    // wrong Content-Length when its ids are shorter.
    const [head, tail] = template.split(ID, 2) as [string, string];
    options.requests = [
      { setupRequest: (req) => ({ ...req, body: `${head}${nextMessageId()}${tail}` }) },
    ];
  } else if (template !== undefined) {
    options.body = template;
  }
  const result = await autocannon(options);
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  const ok = result['2xx'];
  return {
    rps: ok / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: ok,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}
