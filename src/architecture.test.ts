import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('.', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map(
    (m) => m[1] as string,
  );
}

/** Files of `dir` whose imports break `allowed`. */
function violations(dir: string, allowed: (specifier: string, file: string) => boolean): string[] {
  return sources(dir).flatMap((file) =>
    imports(file)
      .filter((spec) => !allowed(spec, file))
      .map((spec) => `${file} imports ${spec}`),
  );
}

const resolvesInside = (spec: string, file: string, folder: string) =>
  !spec.startsWith('.') || !relative(folder, join(file, '..', spec)).startsWith('..');

/** The src/ folder of a path (`bindings/grpc`, `stores/sqlite`, `http`, …). */
function folderOf(path: string): string {
  const parts = path.split('/');
  const top = parts[0] as string;
  return (top === 'bindings' || top === 'stores') && parts.length > 2 ? `${top}/${parts[1]}` : top;
}

/**
 * The folder-to-folder import graph of src/ (tests excluded). Entry files (`index.ts`) are left
 * out: an entry is the face of its folder and may re-export what sits above it (http/index.ts
 * offers the default bindings).
 */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources('.')) {
    if (file.endsWith('/index.ts') || !file.includes('/')) continue;
    const from = folderOf(file);
    for (const spec of imports(file)) {
      if (!spec.startsWith('.')) continue;
      const target = relative('.', join(file, '..', spec));
      if (target.startsWith('..')) continue;
      const to = folderOf(target);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)?.add(to);
    }
  }
  return graph;
}

/** Every cycle of folders (`a → b → a`), each written once, starting at its smallest folder. */
function folderCycles(graph: Map<string, Set<string>>): string[] {
  const cycles = new Set<string>();
  const walk = (node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const loop = path.slice(at);
        const start = loop.indexOf([...loop].sort()[0] as string);
        const rotated = [...loop.slice(start), ...loop.slice(0, start)];
        cycles.add([...rotated, rotated[0]].join(' → '));
      } else if (path.length < 12) walk(next, [...path, next]);
    }
  };
  for (const node of graph.keys()) walk(node, [node]);
  return [...cycles].sort();
}

describe('architecture', () => {
  it('core is pure: no node:*, no I/O libraries, nothing from outside src/core', () => {
    expect(
      violations(
        'core',
        (spec, file) =>
          spec === 'zod' || (spec.startsWith('.') && resolvesInside(spec, file, 'core')),
      ),
    ).toEqual([]);
  });

  it('server, stores/memory, http and bindings are runtime-neutral (no node:*)', () => {
    for (const dir of ['server', 'stores/memory', 'http', 'bindings', 'security']) {
      expect(violations(dir, (spec) => !spec.startsWith('node:'))).toEqual([]);
    }
  });

  it('adapters/ import no node:* and only point down (http, bindings, server, core)', () => {
    const down = (spec: string, file: string) => {
      if (spec.startsWith('node:')) return false;
      if (!spec.startsWith('.')) return true; // the framework's own types
      const target = relative('.', join(file, '..', spec));
      return /^(http|bindings|server|core)\//.test(target) || target.startsWith('adapters/');
    };
    expect(violations('adapters', down)).toEqual([]);
  });

  it('stores/ stays on its floor: it imports neither server/ nor push/', () => {
    const above = (spec: string, file: string) => {
      if (!spec.startsWith('.')) return false;
      const target = relative('.', join(file, '..', spec));
      return target.startsWith('server/') || target.startsWith('push/');
    };
    expect(violations('stores', (spec, file) => !above(spec, file))).toEqual([]);
  });

  it('every storage contract is exported from the a2a-kit/stores entry', () => {
    const contracts = [
      ...readFileSync(join(root, 'stores/types.ts'), 'utf8').matchAll(
        /^export (?:interface|type|class) (\w+)/gm,
      ),
    ].map((m) => m[1] as string);
    const entry = readFileSync(join(root, 'stores/index.ts'), 'utf8');
    expect(contracts.filter((name) => !new RegExp(`\\b${name}\\b`).test(entry))).toEqual([]);
  });

  it('http/ does not import bindings/ (its entry file may offer the default bindings)', () => {
    expect(
      violations(
        'http',
        (spec, file) =>
          file === 'http/index.ts' || !relative('bindings', join(file, '..', spec)).match(/^[^.]/),
      ),
    ).toEqual([]);
  });

  it('inspector/ points down (client, push, security, http, transport, core); its ui/ only at preact', () => {
    const down = (spec: string, file: string) => {
      if (file.startsWith('inspector/ui/')) {
        return /^preact(\/hooks)?$/.test(spec) || (spec.startsWith('./') && !spec.includes('..'));
      }
      if (spec.startsWith('node:')) return spec === 'node:fs/promises'; // reading its built page
      if (!spec.startsWith('.')) return spec === 'jose';
      const target = relative('.', join(file, '..', spec));
      return /^(client|push|security|http|transport|core|inspector)\//.test(target);
    };
    expect(violations('inspector', down)).toEqual([]);
  });

  it('heavy drivers are imported only behind their own subpath', () => {
    const owners: Record<string, readonly string[]> = {
      pg: ['stores/postgres'],
      'better-sqlite3': ['stores/sqlite'],
      '@grpc/grpc-js': ['bindings/grpc'],
      // The NATS bus and the NATS binding each sit behind their own subpath.
      '@nats-io/transport-node': ['stores/nats', 'bindings/nats'],
      '@nats-io/jetstream': ['stores/nats'],
      // mcp/ carries trace context across the bridge (docs/mcp.md), loaded lazily like otel/.
      '@opentelemetry/api': ['otel', 'mcp'],
      'http-message-signatures': ['did'],
    };
    const all = sources('.');
    for (const [pkg, folders] of Object.entries(owners)) {
      const users = all.filter((file) => imports(file).includes(pkg));
      expect(users.filter((file) => !folders.some((f) => file.startsWith(f)))).toEqual([]);
    }
  });

  it('the MCP SDK is used only in mcp/, and there only for types (src/mcp/sdk.ts loads it lazily)', () => {
    const text = (file: string) => readFileSync(join(root, file), 'utf8');
    const all = sources('.');
    const users = all.filter((file) => text(file).includes("'@modelcontextprotocol/sdk"));
    expect(users.filter((file) => !file.startsWith('mcp/'))).toEqual([]);
    const runtime = users.filter((file) =>
      /^\s*import\s+(?!type\b)[^;]*'@modelcontextprotocol\/sdk/m.test(text(file)),
    );
    expect(runtime).toEqual([]);
  });
});

describe('the demo and the examples', () => {
  it('nothing in src/ imports examples/ (the demo agent is src/demo)', () => {
    expect(
      violations('.', (spec, file) => !join(file, '..', spec).split('/').includes('examples')),
    ).toEqual([]);
  });

  it('examples import a2a-kit by name, like a user, plus node:* and their own files', () => {
    const examples = join(root, '..', 'examples');
    const files = readdirSync(examples, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    const bad = files.flatMap((file) =>
      [...readFileSync(join(examples, file), 'utf8').matchAll(/from\s+'([^']+)'/g)]
        .map((m) => m[1] as string)
        .filter(
          (spec) =>
            !/^(a2a-kit(\/|$)|node:|vitest$)/.test(spec) &&
            !(spec.startsWith('./') && !spec.includes('..')) &&
            // a test may use this repository's test fixtures (a fake OIDC issuer)
            !(file.endsWith('.test.ts') && spec.startsWith('../../test/')),
        )
        .map((spec) => `examples/${file} imports ${spec}`),
    );
    expect(bad).toEqual([]);
  });

  it('only node/, push/ and did/ (DID documents over HTTPS) import node:http, node:https or node:http2', () => {
    const users = sources('.').filter((file) =>
      imports(file).some((spec) => /^node:http[s2]?$/.test(spec)),
    );
    const owners = ['node/', 'push/', 'did/'];
    expect(users.filter((f) => !owners.some((o) => f.startsWith(o)))).toEqual([]);
  });

  it('no import cycles between folders', () => {
    expect(folderCycles(folderGraph())).toEqual([]);
  });
});
