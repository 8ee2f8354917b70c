import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every file `entry` loads at run time through relative imports (`import type` is erased). */
function closure(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const text = readFileSync(join(src, entry), 'utf8');
  for (const m of text.matchAll(/^\s*(?:import|export)(?!\s+type\s)[^'"]*from\s+'([^']+)'/gm)) {
    const spec = m[1] ?? '';
    if (!spec.startsWith('.')) continue;
    closure(normalize(join(dirname(entry), spec.replace(/\.js$/, '.ts'))), seen);
  }
  return seen;
}

function nodeImports(files: Set<string>): string[] {
  return [...files].flatMap((file) =>
    [...readFileSync(join(src, file), 'utf8').matchAll(/from\s+'(node:[^']+)'/g)].map(
      (m) => `${relative(src, join(src, file))} imports ${m[1] ?? ''}`,
    ),
  );
}

describe('push receiver portability', () => {
  it('keeps the receiver, signer, JWKS handler and outbox types free of node:*', () => {
    for (const entry of [
      'push/receiver.ts',
      'push/signing.ts',
      'push/jwks.ts',
      'stores/types.ts',
      'push/delivery.ts',
      'stores/memory/push-outbox.ts',
    ]) {
      expect(nodeImports(closure(entry))).toEqual([]);
    }
  });
});
