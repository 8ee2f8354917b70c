/**
 * A taken port, with real processes: `a2a serve` (its HTTP port, then its gRPC port),
 * `a2a push receive` and the demo's own entry point (`npm start`) each print one line
 * "port N is in use: …" saying what to do, no stack and no grpc-js log line, and exit 2.
 * The default ports do not collide (README "Ports").
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_RECEIVE_PORT } from '../../src/cli/commands/push-receive.js';
import { INSPECT_PORT } from '../../src/cli/commands/inspect.js';
import { DEFAULT_PORT } from '../../src/demo/main.js';
import { defaultGrpcPort } from '../../src/demo/grpc.js';
import { buildForProcesses } from '../integration/processes.js';

const run = promisify(execFile);
let dist: string;
let taken: Server;
let port: number;

beforeAll(async () => {
  // Transpiled file by file (fast after the first run). That tree has no proto/ folder, so gRPC
  // is off where the HTTP port is tested; the taken gRPC port is found before the proto loads.
  dist = buildForProcesses();
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

/** Runs a script of the transpiled tree; never rejects on a non-zero exit. */
async function node(script: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(dist, script), ...args], {
      env: { ...process.env, NO_COLOR: '1', PORT: '', A2A_STORE: '' },
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('a taken port', () => {
  it('a2a serve: the HTTP port', async () => {
    const args = ['serve', '--port', String(port), '--no-grpc', '--store', 'memory'];
    const got = await node('src/cli/main.js', args);
    expect(got.code, got.stderr).toBe(2);
    expect(lines(got.stderr)).toEqual([
      `error: port ${port} is in use: pick another with --port N or PORT=N (0 = any free port)`,
    ]);
  });

  it('a2a serve: the gRPC port, without a grpc-js log line', async () => {
    const args = ['serve', '--port', '0', '--grpc-port', String(port), '--store', 'memory'];
    const got = await node('src/cli/main.js', args);
    expect(got.code, got.stderr).toBe(2);
    expect(lines(got.stderr)).toEqual([
      `error: port ${port} is in use (the demo's gRPC port, the HTTP port + 1): pick another ` +
        'with --grpc-port N (0 = any free port), or serve without gRPC: --no-grpc',
    ]);
  });

  it('a2a push receive', async () => {
    const got = await node('src/cli/main.js', [
      'push',
      'receive',
      '--port',
      String(port),
      '--token',
      't',
    ]);
    expect(got.code, got.stderr).toBe(2);
    expect(lines(got.stderr)).toEqual([
      `error: port ${port} is in use: pick another with --port N (0 = any free port)`,
    ]);
  });

  it('the demo agent (npm start)', async () => {
    const got = await node('src/demo/main.js', [
      '--port',
      String(port),
      '--no-grpc',
      '--store',
      'memory',
    ]);
    expect(got.code, got.stderr).toBe(2);
    expect(lines(got.stderr)).toEqual([
      `port ${port} is in use: pick another with --port N or PORT=N (0 = any free port)`,
    ]);
  });
});

describe('default ports', () => {
  it('the demo (HTTP, gRPC), examples/hello, a2a push receive and a2a inspect use distinct ports', async () => {
    const { readFile } = await import('node:fs/promises');
    const hello = await readFile(
      new URL('../../examples/hello/server.ts', import.meta.url),
      'utf8',
    );
    const helloPort = Number(/port: (\d+)/.exec(hello)?.[1]);
    const ports = [
      DEFAULT_PORT,
      defaultGrpcPort(DEFAULT_PORT),
      helloPort,
      PUSH_RECEIVE_PORT,
      INSPECT_PORT,
    ];
    expect(ports).toEqual([8765, 8766, 8770, 8780, 8790]);
    expect(new Set(ports).size).toBe(ports.length);
  });
});
