import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `a2a-kit/<subpath>` → the source file behind that subpath, so examples and docs snippets import
 * the package by name (as a user does) and run without a build. Derived from package.json
 * "exports" (`./dist/src/node/index.js` → `src/node/index.ts`), so a new entry point needs no
 * edit here. tsc and ESLint need nothing: TypeScript resolves the package's own name through
 * "exports" and maps the dist/ output back to its source (outDir/rootDir). After `npm run build`,
 * node resolves the same self-reference to dist/.
 */
const pkg = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as {
  name: string;
  exports: Record<string, string | { default: string }>;
};
export const selfAlias = Object.entries(pkg.exports)
  .flatMap(([subpath, target]) =>
    typeof target === 'string' ? [] : [{ subpath, file: target.default }],
  )
  .map(({ subpath, file }) => ({
    find: new RegExp(`^${pkg.name}${subpath.slice(1).replace(/[/.]/g, '\\$&')}$`),
    replacement: fileURLToPath(
      new URL(file.replace(/^\.\/dist\//, './').replace(/\.js$/, '.ts'), import.meta.url),
    ),
  }));

export default defineConfig({
  resolve: { alias: selfAlias },
  test: {
    include: [
      'src/**/*.test.ts',
      'test/conformance/**/*.test.ts',
      'test/security/**/*.test.ts',
      'test/hostile/**/*.test.ts',
      'test/tck/**/*.test.ts',
      'test/deploy/**/*.test.ts',
      'test/fuzz/**/*.test.ts',
      'test/e2e/**/*.test.ts',
      'test/inspector/**/*.test.ts',
      'test/interop/**/*.test.ts',
      'test/docs/**/*.test.ts',
      'test/otel/**/*.test.ts',
      'test/delegation/**/*.test.ts',
      'examples/**/*.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
