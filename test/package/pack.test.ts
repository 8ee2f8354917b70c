/**
 * The package as a user gets it: `npm pack` (which builds first, through `prepack`), the tarball
 * installed into scratch projects, then every subpath export imported and required, type-checked
 * with `skipLibCheck: false`, and a server and a client run from it. Two projects: one installed
 * with `--omit=optional` and no optional peer, one with every optional peer.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
};
/** Every subpath export that is code (`a2a-kit`, `a2a-kit/server`, …). */
const SUBPATHS = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'a2a-kit' : `a2a-kit/${key.slice(2)}`));
/** The subpaths that need an optional peer, and that peer. */
const NEEDS_PEER: Record<string, string> = {
  'a2a-kit/grpc': '@grpc/grpc-js',
  'a2a-kit/stores/sqlite': 'better-sqlite3',
  'a2a-kit/stores/postgres': 'pg',
  'a2a-kit/testing': 'vitest',
  'a2a-kit/hono': 'hono',
  'a2a-kit/otel': '@opentelemetry/api',
  'a2a-kit/stores/nats': '@nats-io/transport-node',
  'a2a-kit/nats': '@nats-io/transport-node',
  'a2a-kit/did': 'http-message-signatures',
};
const WITHOUT_PEERS = SUBPATHS.filter((s) => NEEDS_PEER[s] === undefined);
/** Entries that load without their framework but whose types name it (only `import type`). */
const TYPES_NEED_PEER = new Set(['a2a-kit/express', 'a2a-kit/fastify', 'a2a-kit/mcp']);

const scratch = mkdtempSync(join(tmpdir(), 'a2a-kit-pack-'));
let tarball = '';

function run(cmd: string, args: string[], cwd: string, timeout = 240_000): string {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', timeout, stdio: 'pipe' });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`,
    );
  }
}

/** A scratch project (`type` as `npm init -y` writes it) with the tarball installed. */
function project(
  name: string,
  type: 'module' | 'commonjs',
  extra: string[],
  omitOptional: boolean,
) {
  const dir = join(scratch, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type }));
  const args = ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...extra];
  if (omitOptional) args.push('--omit=optional');
  run('npm', args, dir);
  return dir;
}

/** Type-checks `file` in `dir` with the strictest library settings a user may have. */
function typecheck(dir: string, file: string): void {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
      },
      files: [file],
    }),
  );
  run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], dir);
}

const devVersion = (name: string) => `${name}@${pkg.devDependencies[name] ?? 'latest'}`;

beforeAll(() => {
  const out = run('npm', ['pack', '--pack-destination', scratch, '--json'], root, 300_000);
  const [info] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
  tarball = join(scratch, info?.filename ?? '');
}, 320_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('npm pack', () => {
  it('builds first: the tarball holds the code every export points at', () => {
    const listing = run('tar', ['-tzf', tarball], scratch).split('\n');
    for (const target of Object.values(pkg.exports)) {
      const paths =
        typeof target === 'string' ? [target] : Object.values(target as Record<string, string>);
      for (const path of paths) expect(listing).toContain(`package/${path.slice(2)}`);
    }
    expect(listing.some((f) => f.endsWith('.test.js') || f.endsWith('.test.ts'))).toBe(false);
  }, 300_000);

  it("ships the web inspector's bundled page (docs/inspector.md), and no uncompiled UI module", () => {
    const listing = run('tar', ['-tzf', tarball], scratch).split('\n');
    for (const file of ['index.html', 'app.js', 'app.css']) {
      expect(listing).toContain(`package/dist/src/inspector/assets/${file}`);
    }
    expect(listing.some((f) => f.startsWith('package/dist/src/inspector/ui/'))).toBe(false);
    const html = run(
      'tar',
      ['-xzOf', tarball, 'package/dist/src/inspector/assets/index.html'],
      scratch,
    );
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/); // no inline script (strict CSP)
    expect(html).not.toMatch(/https?:\/\//); // nothing from a CDN
  }, 60_000);
});

describe('emitted declarations', () => {
  it('client methods return the named spec types, not inline object types', () => {
    const dts = run('tar', ['-xzOf', tarball, 'package/dist/src/client/client.d.ts'], scratch);
    for (const signature of [
      'sendMessage(request: SendMessageRequest, options?: CallOptions): Promise<SendMessageResponse>;',
      'getTask(request: GetTaskRequest, options?: CallOptions): Promise<Task>;',
      'listTasks(request?: ListTasksRequest, options?: CallOptions): Promise<ListTasksResponse>;',
      'cancelTask(request: CancelTaskRequest, options?: CallOptions): Promise<Task>;',
      '): Promise<TaskPushNotificationConfig>;',
      '): Promise<ListTaskPushNotificationConfigsResponse>;',
      '): Promise<AgentCard>;',
    ]) {
      expect(dts).toContain(signature);
    }
  }, 60_000);
});

describe('installed with --omit=optional and no optional peer', () => {
  let esm = '';
  let cjs = '';
  beforeAll(() => {
    esm = project('esm', 'module', [devVersion('@types/node')], true);
    cjs = project('cjs', 'commonjs', [devVersion('@types/node')], true);
  }, 480_000);

  it('imports every export that needs no peer, and names the missing peer otherwise', () => {
    const script = `
      const results = {};
      for (const s of ${JSON.stringify(SUBPATHS)}) {
        try { results[s] = Object.keys(await import(s)).length; }
        catch (e) { results[s] = String(e.message).split('\\n')[0]; }
      }
      console.log(JSON.stringify(results));`;
    writeFileSync(join(esm, 'imports.mjs'), script);
    const results = JSON.parse(run('node', ['imports.mjs'], esm)) as Record<string, unknown>;
    for (const s of WITHOUT_PEERS) expect(results[s], s).toBeGreaterThan(0);
    for (const [s, peer] of Object.entries(NEEDS_PEER)) expect(String(results[s])).toContain(peer);
  }, 300_000);

  it('requires every export that needs no peer from CommonJS, one instance shared with import', () => {
    const script = `
      const results = {};
      for (const s of ${JSON.stringify(WITHOUT_PEERS)}) results[s] = Object.keys(require(s)).length;
      const { A2AError } = require('a2a-kit');
      const { TransportError } = require('a2a-kit/client');
      import('a2a-kit').then(async (esm) => {
        const client = await import('a2a-kit/client');
        results.sameA2AError = esm.A2AError === A2AError;
        results.sameTransportError = client.TransportError === TransportError;
        console.log(JSON.stringify(results));
      });`;
    writeFileSync(join(cjs, 'requires.cjs'), script);
    const results = JSON.parse(run('node', ['requires.cjs'], cjs)) as Record<string, unknown>;
    for (const s of WITHOUT_PEERS) expect(results[s], s).toBeGreaterThan(0);
    expect(results.sameA2AError).toBe(true);
    expect(results.sameTransportError).toBe(true);
  }, 300_000);

  it('type-checks with skipLibCheck: false, from ESM and from CommonJS', () => {
    const typed = WITHOUT_PEERS.filter((s) => !TYPES_NEED_PEER.has(s));
    const source = typed.map((s, i) => `import * as m${i} from '${s}';`).join('\n');
    const use = `\nexport const all = [${typed.map((_, i) => `m${i}`).join(', ')}];\n`;
    writeFileSync(join(esm, 'check.ts'), source + use);
    typecheck(esm, 'check.ts');
    writeFileSync(join(cjs, 'check.cts'), source + use);
    typecheck(cjs, 'check.cts');
  }, 300_000);

  it('runs a server and a client from plain JavaScript (ESM and CommonJS)', () => {
    const body = (load: (s: string) => string) => `
      const { createAgent, textOf } = ${load('a2a-kit/server')};
      const { serve } = ${load('a2a-kit/node')};
      const { A2AClient, userMessage, TransportError } = ${load('a2a-kit/client')};
      const { A2AError } = ${load('a2a-kit')};
      const agent = createAgent({
        card: { name: 'Echo', description: 'echo', version: '1.0.0', skills: [] },
        async *execute({ message, task }) {
          yield task.artifact('You said: ' + textOf(message));
          yield task.completed();
        },
      });
      const served = await serve(agent, { port: 0, host: '127.0.0.1', logger: null });
      try {
        const client = await A2AClient.connect(served.url);
        const reply = await client.sendMessage({ message: userMessage('hi') });
        const text = textOf(reply.task.artifacts[0]);
        let code;
        try { await client.getTask({ id: 'no-such-task' }); } catch (e) { code = e instanceof A2AError ? e.code : 'not an A2AError: ' + e; }
        console.log(JSON.stringify({ state: reply.task.status.state, text, code, te: typeof TransportError }));
      } finally { await served.close(); }`;
    writeFileSync(
      join(esm, 'run.mjs'),
      body((s) => `await import('${s}')`),
    );
    writeFileSync(join(cjs, 'run.cjs'), `(async () => {${body((s) => `require('${s}')`)}})();`);
    for (const [dir, file] of [
      [esm, 'run.mjs'],
      [cjs, 'run.cjs'],
    ] as const) {
      const result = JSON.parse(run('node', [file], dir, 60_000)) as Record<string, unknown>;
      expect(result).toEqual({
        state: 'TASK_STATE_COMPLETED',
        text: 'You said: hi',
        code: 'TASK_NOT_FOUND',
        te: 'function',
      });
    }
  }, 300_000);
});

describe('installed with every optional peer', () => {
  let dir = '';
  beforeAll(() => {
    // Every peer comes from the registry; install scripts are skipped so better-sqlite3 is not
    // compiled a second time (minutes on a busy machine): its native module, built by this
    // repository's own install of the same version, is copied in.
    const sqliteVersion = (
      JSON.parse(
        readFileSync(join(root, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8'),
      ) as { version: string }
    ).version;
    dir = project(
      'peers',
      'module',
      [
        `better-sqlite3@${sqliteVersion}`,
        ...[
          'pg',
          '@grpc/grpc-js',
          '@grpc/proto-loader',
          '@types/pg',
          '@types/better-sqlite3',
          'express',
          '@types/express',
          'fastify',
          'hono',
          '@modelcontextprotocol/sdk',
          '@opentelemetry/api',
          '@nats-io/transport-node',
          '@nats-io/jetstream',
          'http-message-signatures',
        ].map(devVersion),
        devVersion('@types/node'),
        '--ignore-scripts',
      ],
      false,
    );
    cpSync(
      join(root, 'node_modules', 'better-sqlite3', 'build'),
      join(dir, 'node_modules', 'better-sqlite3', 'build'),
      { recursive: true },
    );
  }, 480_000);

  it('type-checks every export but testing with skipLibCheck: false', () => {
    const entries = SUBPATHS.filter((s) => s !== 'a2a-kit/testing');
    const source = entries.map((s, i) => `import * as m${i} from '${s}';`).join('\n');
    writeFileSync(
      join(dir, 'check.ts'),
      `${source}\nexport const all = [${entries.map((_, i) => `m${i}`).join(', ')}];\n`,
    );
    typecheck(dir, 'check.ts');
  }, 300_000);

  it('serves on SQLite and gRPC and answers a gRPC client', () => {
    writeFileSync(
      join(dir, 'run.mjs'),
      `
      import { createAgent, textOf } from 'a2a-kit/server';
      import { serve } from 'a2a-kit/node';
      import { SqliteTaskStore } from 'a2a-kit/stores/sqlite';
      import { A2AClient, userMessage } from 'a2a-kit/client';
      const agent = createAgent({
        card: { name: 'Echo', description: 'echo', version: '1.0.0', skills: [] },
        async *execute({ message, task }) {
          yield task.artifact('You said: ' + textOf(message));
          yield task.completed();
        },
      });
      const store = new SqliteTaskStore({ path: 'tasks.db' });
      const served = await serve(agent, { port: 0, host: '127.0.0.1', store, grpc: true, logger: null });
      try {
        const client = await A2AClient.connect(served.url, { preferredBinding: 'GRPC' });
        const reply = await client.sendMessage({ message: userMessage('hi') });
        console.log(JSON.stringify({ binding: client.selectedInterface.protocolBinding, text: textOf(reply.task.artifacts[0]) }));
      } finally { await served.close(); }`,
    );
    const result = JSON.parse(run('node', ['run.mjs'], dir, 60_000)) as Record<string, unknown>;
    expect(result).toEqual({ binding: 'GRPC', text: 'You said: hi' });
  }, 300_000);
});
