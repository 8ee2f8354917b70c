/**
 * Fixed-duration HTTP load: wrk when the load generator has it (wrk.ts, see generator.ts),
 * autocannon (JavaScript, one event loop, saturates before a fast server does) otherwise.
 */
import autocannon from 'autocannon';
import { childArg } from '../ipc.js';
import { nextMessageId } from './sse-load.js';
import { wrkLoad } from './wrk.js';

const ID = '[<id>]';

/** The program that produced an HTTP load result. */
export type HttpGenerator = 'wrk' | 'autocannon';

/** One HTTP load run. */
export interface HttpLoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** The first `[<id>]` in the body is replaced by a fresh id per request. */
  body?: string | undefined;
  connections: number;
  durationSec: number;
  /** Force a generator (the ceiling comparison); the load generator's default otherwise. */
  generator?: HttpGenerator | undefined;
  /** Count the SSE events of the answers (wrk only: `events` of the result). */
  countEvents?: boolean | undefined;
}

/** What one run measured. */
export interface HttpLoadResult {
  rps: number;
  /** Latency percentiles as measured, ms. */
  p50: number;
  p99: number;
  /**
   * wrk's own p99, ms: corrected for coordinated omission (bench/load/wrk-latency.ts explains
   * what that adds); undefined from autocannon, which reports what it measured.
   */
  p99Corrected?: number | undefined;
  requests: number;
  /** Connection errors, timeouts and non-2xx answers. */
  failures: number;
  /** The failures by kind. */
  errors: { connect: number; read: number; write: number; non2xx: number; timeout: number };
  generator: HttpGenerator;
  /** SSE events in the answers, when counted (`countEvents`, wrk). */
  events?: number | undefined;
}

/** The wrk binary the orchestrator found (`--wrk=PATH` of the load generator process). */
const WRK = childArg('wrk');

/** Runs one HTTP load with `spec.generator`, or wrk when there is one, else autocannon. */
export function httpLoad(spec: HttpLoadSpec): Promise<HttpLoadResult> {
  const generator = spec.generator ?? (WRK === undefined ? 'autocannon' : 'wrk');
  if (generator === 'autocannon') return autocannonLoad(spec);
  if (WRK === undefined) throw new Error('wrk requested but the load generator has none');
  return wrkLoad(WRK, spec);
}

/** Runs autocannon against one URL. */
async function autocannonLoad(spec: HttpLoadSpec): Promise<HttpLoadResult> {
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
    // autocannon counts connection resets and read errors together.
    errors: {
      connect: result.errors,
      read: 0,
      write: 0,
      non2xx: result.non2xx,
      timeout: result.timeouts,
    },
    generator: 'autocannon',
  };
}
