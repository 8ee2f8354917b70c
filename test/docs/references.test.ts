/**
 * Docs and code comments cite only what a reader of this repository can open: the public spec
 * by section and this repository's files. No file names documents kept outside it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const FOLDERS = ['src', 'test', 'docs', 'examples', 'bench', 'scripts', 'proto'];
const OUTSIDE =
  /\.\.\/shared|A2A-1\.0-(DIGEST|CHECKLIST)|LANDSCAPE\.md|ARCHITECTURE-REVIEW|research\/|DESIGN(\.md| §| rule)|digest §/;

function files(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|js|mjs|md|proto|json)$/.test(name))
    .map((name) => join(dir, name));
}

describe('references', () => {
  it('name no document outside the repository', () => {
    const all = ['README.md', ...FOLDERS.flatMap(files)].filter(
      (f) => f !== 'test/docs/references.test.ts',
    );
    const found = all.flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
