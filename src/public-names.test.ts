/**
 * Public names mean one thing: a name exported by several entry points (package.json "exports")
 * is the same declaration everywhere, so `StreamItem` from a2a-kit/client and a2a-kit/server is
 * one type. And the client transport floor (src/transport/) stands on core only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;

/** The source file behind each entry point of package.json. */
function entryFiles(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  return Object.values(pkg.exports).flatMap((target) =>
    typeof target === 'string' // ./package.json
      ? []
      : [join(root, target.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'))],
  );
}

describe('public names', () => {
  it('a name exported by several entry points is one declaration', () => {
    const entries = entryFiles();
    const program = ts.createProgram(entries, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    });
    const checker = program.getTypeChecker();
    const declarations = new Map<string, Map<string, string[]>>();
    for (const entry of entries) {
      const file = program.getSourceFile(entry);
      const module = file && checker.getSymbolAtLocation(file);
      if (!module) throw new Error(`no module for ${entry}`);
      for (const exported of checker.getExportsOfModule(module)) {
        const target =
          exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const declaration = target.declarations?.[0];
        const where = declaration
          ? `${declaration.getSourceFile().fileName.slice(root.length)}:${declaration.pos}`
          : '?';
        const byPlace = declarations.get(exported.name) ?? new Map<string, string[]>();
        byPlace.set(where, [...(byPlace.get(where) ?? []), entry.slice(root.length)]);
        declarations.set(exported.name, byPlace);
      }
    }
    expect(declarations.size).toBeGreaterThan(100);
    const collisions = [...declarations]
      .filter(([, byPlace]) => byPlace.size > 1)
      .map(
        ([name, byPlace]) =>
          `${name}: ${[...byPlace.values()].map((e) => e.join(', ')).join(' vs ')}`,
      );
    expect(collisions).toEqual([]);
  }, 60_000);
});

describe('src/transport', () => {
  it('imports only core and itself (floor 2: below client/ and bindings/)', () => {
    const dir = join(root, 'src/transport');
    const outside = readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .flatMap((name) =>
        [...readFileSync(join(dir, name), 'utf8').matchAll(/from\s+'(\.[^']+)'/g)]
          .map((m) => m[1] ?? '')
          .filter((spec) => !spec.startsWith('./') && !spec.startsWith('../core/'))
          .map((spec) => `${name} imports ${spec}`),
      );
    expect(outside).toEqual([]);
  });
});
