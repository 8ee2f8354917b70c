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

  it('heavy drivers are imported only behind their own subpath', () => {
    const owners: Record<string, string> = {
      pg: 'stores/postgres',
      'better-sqlite3': 'stores/sqlite',
      '@grpc/grpc-js': 'bindings/grpc',
    };
    const all = sources('.');
    for (const [pkg, folder] of Object.entries(owners)) {
      const users = all.filter((file) => imports(file).includes(pkg));
      expect(users.filter((file) => !file.startsWith(folder))).toEqual([]);
    }
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
});
