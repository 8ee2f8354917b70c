/**
 * A small SSE load loop (wrk and autocannon cannot count events): N concurrent workers, each opening a
 * stream, reading it to its end, and opening the next one. Events are counted by their frame
 * terminator (`\n\n`), so reading costs the load generator almost nothing.
 */
import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http';
import { A2A_HEADERS, sendRequest, type Binding } from './requests.js';

/** One streaming run: `durationSec` of streams, or exactly `streams` of them. */
export interface StreamLoadSpec {
  url: string;
  binding: Binding;
  /** Message text (the agent's mode, see servers/modes.ts). */
  text: string;
  concurrency: number;
  durationSec?: number | undefined;
  streams?: number | undefined;
}

/** What a streaming run measured. */
export interface StreamLoadResult {
  streams: number;
  events: number;
  seconds: number;
  /** Time to first event, ms. */
  ttfeP50: number;
  ttfeP99: number;
  /** Streams that failed or did not end with a completed task. */
  failures: number;
}

const prefix = `bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
let counter = 0;

/** A fresh message id. */
export function nextMessageId(): string {
  return `${prefix}-${++counter}`;
}

/** Runs the streaming load. */
export async function streamLoad(spec: StreamLoadSpec): Promise<StreamLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const ttfe: number[] = [];
  let events = 0;
  let failures = 0;
  let started = 0;
  const begin = performance.now();
  const deadline = begin + (spec.durationSec ?? Infinity) * 1000;
  const more = () =>
    spec.streams !== undefined ? started < spec.streams : performance.now() < deadline;
  const worker = async () => {
    while (more()) {
      started++;
      try {
        const result = await oneStream(spec, agent);
        ttfe.push(result.ttfeMs);
        events += result.events;
        if (!result.completed) failures++;
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, worker));
  const seconds = (performance.now() - begin) / 1000;
  agent.destroy();
  ttfe.sort((a, b) => a - b);
  return {
    streams: ttfe.length,
    events,
    seconds,
    ttfeP50: percentile(ttfe, 0.5),
    ttfeP99: percentile(ttfe, 0.99),
    failures,
  };
}

/** The value at quantile `q` of sorted values (0 when empty). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

interface OneStream {
  events: number;
  ttfeMs: number;
  completed: boolean;
}

/** Starts one streaming send; `onFirst` runs at the first event. */
export function openStream(
  spec: Pick<StreamLoadSpec, 'url' | 'binding' | 'text'>,
  agent: Agent,
  onFirst?: (res: IncomingMessage) => void,
): { req: ClientRequest; done: Promise<OneStream> } {
  const { path, body } = sendRequest(spec.binding, true, nextMessageId(), spec.text);
  const start = performance.now();
  let req!: ClientRequest;
  const done = new Promise<OneStream>((resolve, reject) => {
    req = request(`${spec.url}${path}`, {
      method: 'POST',
      agent,
      headers: {
        ...A2A_HEADERS,
        accept: 'text/event-stream',
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`HTTP ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let events = 0;
      let ttfeMs = 0;
      let newline = false;
      let tail = '';
      res.on('data', (chunk: string) => {
        for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) {
          if ((i === 0 && newline) || (i > 0 && chunk.charCodeAt(i - 1) === 10)) {
            if (events++ === 0) {
              ttfeMs = performance.now() - start;
              onFirst?.(res);
            }
          }
        }
        newline = chunk.charCodeAt(chunk.length - 1) === 10;
        tail = (tail + chunk).slice(-300);
      });
      res.on('error', reject);
      res.on('end', () =>
        resolve({ events, ttfeMs, completed: tail.includes('TASK_STATE_COMPLETED') }),
      );
    });
    req.end(body);
  });
  return { req, done };
}

function oneStream(spec: StreamLoadSpec, agent: Agent): Promise<OneStream> {
  return openStream(spec, agent).done;
}
