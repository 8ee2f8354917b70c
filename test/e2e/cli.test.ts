/**
 * The built `a2a` binary in a child process (shebang, bin entry, exit codes, signals), against the
 * demo agent. Builds once with `tsc -p tsconfig.build.json` (what `npm run build` does).
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeResult } from '../../src/node/index.js';
import { closedPort, startDemoAgent } from './harness.js';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const bin = `${root}dist/src/cli/main.js`;

let agent: ServeResult;
let url: string;

/** Runs the built CLI; never rejects on a non-zero exit. */
function a2a(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return a2aWith({}, ...args);
}

/** The packages named here fail to resolve in the child, as if not installed. */
const hide = (...packages: string[]) => ({
  env: {
    NODE_OPTIONS: `--import ${root}test/e2e/fixtures/hide-packages.mjs`,
    A2A_HIDE_PACKAGES: packages.join(','),
  },
});

/** {@link a2a} with extra environment variables and a working directory. */
async function a2aWith(
  options: { env?: Record<string, string>; cwd?: string },
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      timeout: 60_000,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === 'number' ? e.code : -1,
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? '',
    };
  }
}

beforeAll(async () => {
  const started = Date.now();
  try {
    await run('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, timeout: 170_000 });
  } catch (error) {
    // Type errors elsewhere in the tree still emit JavaScript; only a missing CLI is fatal.
    if ((statSync(bin, { throwIfNoEntry: false })?.mtimeMs ?? 0) < started - 1000) throw error;
  }
  agent = await startDemoAgent();
  url = agent.url;
}, 180_000);
afterAll(() => agent.close());

describe('the a2a binary', () => {
  it('is the package bin, with a node shebang', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
      bin: Record<string, string>;
      version: string;
    };
    expect(pkg.bin.a2a).toBe('dist/src/cli/main.js');
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('prints its version', async () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };
    const { code, stdout } = await a2a('--version');
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(pkg.version);
  });

  it('streams a task as plain lines through a pipe (exit 0)', async () => {
    const { code, stdout } = await a2a('send', '--stream', url, 'story', '3');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^task \S+ · context \S+ · SUBMITTED$/m);
    expect(stdout).toMatch(/^final state COMPLETED · task \S+ · 3 artifact chunks$/m);
    expect(stdout).not.toContain('\x1b[');
  });

  it('exits 1 for a spec error, 2 for bad usage, 3 for an unreachable agent', async () => {
    const unknown = await a2a('get', url, 'no-such-task');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('TASK_NOT_FOUND');
    const usage = await a2a('send');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('missing the agent URL');
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const unreachable = await a2a('discover', dead);
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain(
      'connection refused — is the agent running? (start one with `a2a serve`)',
    );
  });

  it('runs the walkthrough with its own agent (exit 0)', async () => {
    const { code, stdout } = await a2a('demo');
    expect(code).toBe(0);
    expect(stdout).toContain('Step 9/9');
    expect(stdout).toContain('✔ Walkthrough complete');
  });

  it('serves the demo agent until Ctrl+C', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let out = '';
    const served = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /listening on (http:\/\/\S+)/.exec(out)?.[1];
        if (found) resolve(found);
      });
      child.on('exit', () => reject(new Error(`serve exited early: ${out}`)));
    });
    const { code, stdout } = await a2a('send', served, 'echo', 'from a child');
    expect(code).toBe(0);
    expect(stdout).toContain('You said: from a child');
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toContain('stopped.');
  });
});

describe('the a2a binary in a pipeline', () => {
  it('ends quietly when the reader of its output has gone (`a2a get … | head`)', async () => {
    const created = await a2a('send', url, 'echo', 'piped', '-o', 'json');
    const id = (JSON.parse(created.stdout) as { task: { id: string } }).task.id;
    const child = spawn(process.execPath, [bin, 'get', url, id, '--history', '10'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // the reader is gone before a2a writes a byte
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('a missing optional package is a setup error (exit 2) that says what to install', () => {
  it('the PostgreSQL driver', async () => {
    const { code, stderr } = await a2aWith(
      hide('pg'),
      'serve',
      '--port',
      '0',
      '--no-grpc',
      '--store',
      'postgres://postgres@127.0.0.1:5432/test',
    );
    expect(code).toBe(2);
    expect(stderr).toContain('error: The PostgreSQL store needs the optional package pg');
    expect(stderr).toContain('hint: install it: npm install pg');
    expect(stderr).not.toMatch(/^\s+at /m); // no stack
  });

  it('the SQLite driver', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'a2a-cli-'));
    const { code, stderr } = await a2aWith(
      { ...hide('better-sqlite3'), cwd },
      'serve',
      '--port',
      '0',
      '--no-grpc',
    );
    expect(code).toBe(2);
    expect(stderr).toContain('error: The SQLite store needs the optional package better-sqlite3');
    expect(stderr).toContain(
      'hint: install it: npm install better-sqlite3@12; or keep tasks in memory: --store memory',
    );
  });

  it('the gRPC packages, to serve gRPC and to call over it', async () => {
    const served = await a2aWith(
      hide('@grpc/grpc-js'),
      'serve',
      '--port',
      '0',
      '--grpc-port',
      '0',
      '--store',
      'memory',
    );
    expect(served.code).toBe(2);
    expect(served.stderr).toContain(
      'error: Serving gRPC needs the optional packages @grpc/grpc-js and @grpc/proto-loader',
    );
    expect(served.stderr).toContain(
      'hint: install it: npm install @grpc/grpc-js @grpc/proto-loader; or serve without gRPC: --no-grpc',
    );
    const called = await a2aWith(hide('@grpc/grpc-js'), 'get', url, 'x', '--binding', 'GRPC');
    expect(called.code).toBe(2);
    expect(called.stderr).toContain('npm install @grpc/grpc-js @grpc/proto-loader');
  });
});

describe('a2a mcp serve over stdio (a real MCP SDK client starts the built binary)', () => {
  it('without @modelcontextprotocol/sdk says what to install (exit 2)', async () => {
    const served = await a2aWith(hide('@modelcontextprotocol/sdk'), 'mcp', 'serve', url);
    expect(served.code).toBe(2);
    expect(served.stderr).toContain('npm install @modelcontextprotocol/sdk');
    const wrapped = await a2aWith(hide('@modelcontextprotocol/sdk'), 'serve', '--mcp', 'true');
    expect(wrapped.code).toBe(2);
    expect(wrapped.stderr).toContain('npm install @modelcontextprotocol/sdk');
  });

  it('lists the tools, calls echo, runs book through an elicitation and cancels slow', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const { CreateTaskResultSchema, ElicitRequestSchema } =
      await import('@modelcontextprotocol/sdk/types.js');
    const client = new Client(
      { name: 'stdio-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} }, tasks: { requests: {} } } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { answer: '2026-12-24' } };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', 'serve', url],
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining([
          'a2a_kit_demo_agent_echo',
          'a2a_kit_demo_agent_book',
          'send_message',
        ]),
      );
      const echo = await client.callTool({
        name: 'a2a_kit_demo_agent_echo',
        arguments: { text: 'echo over stdio' },
      });
      expect(JSON.stringify(echo.content)).toContain('You said: over stdio');
      const book = await client.callTool({
        name: 'a2a_kit_demo_agent_book',
        arguments: { text: 'book' },
      });
      expect(asked[0]).toContain('Which date?');
      expect(book.structuredContent).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
      const { task } = await client.request(
        {
          method: 'tools/call',
          params: { name: 'a2a_kit_demo_agent_slow', arguments: { text: 'slow 600' }, task: {} },
        },
        CreateTaskResultSchema,
      );
      const canceled = await client.experimental.tasks.cancelTask(task.taskId);
      expect(canceled.status).toBe('cancelled');
    } finally {
      await client.close();
    }
  }, 60_000);
});
