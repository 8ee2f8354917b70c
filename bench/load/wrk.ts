/**
 * Fixed-duration HTTP load with `wrk` (native, one thread per core it runs on): the HTTP
 * generator of the bench when wrk is installed (see generator.ts). A generated Lua script sets
 * method, headers and body, gives every request a unique message id (`[<id>]` in the body
 * becomes `<run prefix>-<wrk thread>-<counter>`), and prints the summary as one JSON line and
 * the latency histogram as another from wrk's `done()` hook, which is what this module parses:
 * the percentiles it returns are the measured ones (wrk-latency.ts), wrk's own p99 next to them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpLoadResult, HttpLoadSpec } from './http-load.js';
import { percentile, uncorrected, wrkInterval } from './wrk-latency.js';

const ID = '[<id>]';
const MARK = 'WRK_JSON ';
/** The latency histogram line: `value:count` pairs (µs), as wrk hands them to `done()`. */
const HIST = 'WRK_HIST ';

/** What the `done()` hook prints (latencies in µs). */
interface WrkSummary {
  requests: number;
  durationUs: number;
  connect: number;
  read: number;
  write: number;
  /** Answers with a status above 399 (wrk's own count). */
  status: number;
  timeout: number;
  p50: number;
  p99: number;
  /** SSE `data:` lines in the answers (0 unless `countEvents`). */
  events: number;
}

/** A Lua string literal of `value` (3-digit decimal escapes, so any byte is safe). */
function lua(value: string): string {
  let out = '"';
  for (const byte of Buffer.from(value, 'utf8')) {
    out +=
      byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c
        ? String.fromCharCode(byte)
        : `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/**
 * The Lua script of one run. No `response()` hook unless SSE events are counted
 * (`spec.countEvents`): defining one makes wrk hand every answer to Lua, and non-2xx answers
 * are counted by wrk anyway (`errors.status`). Counted, each `data:` line of an answer is one
 * event (the bench's streams send one `data:` line per event).
 */
export function wrkScript(spec: HttpLoadSpec, runPrefix: string): string {
  const lines = [`wrk.method = ${lua(spec.method)}`, 'local all = {}'];
  if (spec.countEvents === true) {
    lines.push(
      'events = 0',
      'function response(status, headers, body)',
      '  local _, n = string.gsub("\\n" .. body, "\\ndata:", "")',
      '  events = events + n',
      'end',
    );
  }
  for (const [name, value] of Object.entries(spec.headers)) {
    lines.push(`wrk.headers[${lua(name)}] = ${lua(value)}`);
  }
  const template = spec.body;
  if (template?.includes(ID) === true) {
    const at = template.indexOf(ID);
    lines.push(
      `local head = ${lua(template.slice(0, at))}`,
      `local tail = ${lua(template.slice(at + ID.length))}`,
      `local prefix = ${lua(`${runPrefix}-`)}`,
      'local threads = 0',
      // setup() runs in the main Lua state, once per thread: each thread gets its own number.
      'function setup(thread) threads = threads + 1; thread:set("tid", threads); all[threads] = thread end',
      'local counter = 0',
      'function request()',
      '  counter = counter + 1',
      '  return wrk.format(nil, nil, nil, head .. prefix .. tid .. "-" .. counter .. tail)',
      'end',
    );
  } else {
    if (template !== undefined) lines.push(`wrk.body = ${lua(template)}`);
    lines.push('function setup(thread) all[#all + 1] = thread end');
  }
  lines.push(
    'function done(summary, latency, requests)',
    '  local e = summary.errors',
    // Each thread's `events` (a global of its own Lua state), summed; 0 when not counted.
    '  local events = 0',
    '  for _, thread in ipairs(all) do events = events + (thread:get("events") or 0) end',
    `  io.write(string.format("\\n${MARK}{\\"requests\\":%d,\\"durationUs\\":%d,\\"connect\\":%d,` +
      `\\"read\\":%d,\\"write\\":%d,\\"status\\":%d,\\"timeout\\":%d,\\"p50\\":%d,\\"p99\\":%d,\\"events\\":%d}\\n",`,
    '    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,',
    '    latency:percentile(50), latency:percentile(99), events))',
    // The whole histogram, so the bench can undo wrk's coordinated-omission correction
    // (wrk-latency.ts); `latency(i)` is the i-th non-empty bucket and its count.
    `  local parts = {}`,
    '  for i = 1, #latency do local v, c = latency(i); parts[i] = string.format("%d:%d", v, c) end',
    `  io.write("${HIST}", table.concat(parts, ","), "\\n")`,
    'end',
  );
  return `${lines.join('\n')}\n`;
}

/** Reads the `done()` lines out of wrk's stdout (`connections`: what wrk was run with). */
export function parseWrkOutput(stdout: string, connections: number): HttpLoadResult {
  const lines = stdout.split('\n');
  const line = lines.find((l) => l.startsWith(MARK));
  if (line === undefined) throw new Error(`wrk printed no summary:\n${stdout}`);
  const s = JSON.parse(line.slice(MARK.length)) as WrkSummary;
  const ok = s.requests - s.status;
  const seconds = s.durationUs / 1e6;
  const reported = new Map<number, number>();
  const hist = lines.find((l) => l.startsWith(HIST))?.slice(HIST.length) ?? '';
  for (const pair of hist.split(',')) {
    const [value, count] = pair.split(':').map(Number) as [number, number];
    if (count > 0) reported.set(value, (reported.get(value) ?? 0) + count);
  }
  const measured = uncorrected(reported, wrkInterval(s.durationUs, s.requests, connections));
  // Each answered request is one measured sample: anything else means this wrk reports its
  // histogram differently from what wrk-latency.ts undoes.
  let samples = 0;
  for (const count of measured.values()) samples += count;
  if (samples !== s.requests - s.timeout) {
    throw new Error(
      `wrk's histogram holds ${samples} measured samples for ${s.requests - s.timeout} answers`,
    );
  }
  return {
    rps: ok / seconds,
    p50: percentile(measured, 50) / 1000,
    p99: percentile(measured, 99) / 1000,
    p99Corrected: s.p99 / 1000,
    requests: ok,
    failures: s.connect + s.read + s.write + s.status + s.timeout,
    errors: {
      connect: s.connect,
      read: s.read,
      write: s.write,
      non2xx: s.status,
      timeout: s.timeout,
    },
    generator: 'wrk',
    events: s.events,
  };
}

let runs = 0;
const prefix = `wrk-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Runs wrk (`binary`) once. One wrk thread: the process inherits the load generator's core
 * (taskset), where one event loop is the most one core does. wrk takes whole seconds, so a
 * fractional duration (the smoke run) is ended with SIGINT, after which wrk still prints its
 * summary; the rate uses the duration wrk reports.
 */
export async function wrkLoad(binary: string, spec: HttpLoadSpec): Promise<HttpLoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-bench-wrk-'));
  const script = join(dir, 'load.lua');
  writeFileSync(script, wrkScript(spec, `${prefix}-${++runs}`));
  const whole = Number.isInteger(spec.durationSec);
  const args = [
    '-t1',
    `-c${spec.connections}`,
    `-d${Math.ceil(spec.durationSec) + (whole ? 0 : 1)}s`,
    '--timeout',
    '30s',
    '-s',
    script,
    spec.url,
  ];
  try {
    return await new Promise<HttpLoadResult>((resolve, reject) => {
      const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const stop = whole
        ? undefined
        : setTimeout(() => child.kill('SIGINT'), spec.durationSec * 1000);
      child.once('error', reject);
      child.once('close', (code, signal) => {
        if (stop !== undefined) clearTimeout(stop);
        try {
          resolve(parseWrkOutput(stdout, spec.connections));
        } catch (error) {
          const why = `wrk exited (${signal ?? code ?? '?'}): ${stderr.trim()}`;
          reject(new Error(`${why}\n${(error as Error).message}`));
        }
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
