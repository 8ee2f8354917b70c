// Records the wire facts of the spec's a2a.proto in proto/spec-facts.json, which a test compares
// with our own proto/a2a.proto. Run after `npm run build`, offline, with a local copy of the spec:
//
//   node scripts/update-proto-facts.mjs <path/to/spec/a2a.proto>
//
// The spec file imports google/api annotations we do not ship; they are stripped from a temporary
// copy (after reading the REQUIRED field behaviours from the original text).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { protoFacts, requiredFromSource } from '../dist/src/bindings/grpc/proto-facts.js';

const source = process.argv[2];
if (!source) {
  console.error('usage: node scripts/update-proto-facts.mjs <path/to/spec/a2a.proto>');
  process.exit(2);
}
const text = readFileSync(source, 'utf8');
const required = requiredFromSource(text);
const stripped = text
  .replace(/^import "google\/api\/[^"]+";$/gm, '')
  .replace(/option \(google\.api\.http\) = \{(?:[^{}]|\{[^{}]*\})*\};/g, '')
  .replace(/option \(google\.api\.method_signature\) = "[^"]*";/g, '')
  .replace(/\s*\[\(google\.api\.field_behavior\) = \w+\]/g, '');
const dir = mkdtempSync(join(tmpdir(), 'a2a-proto-'));
try {
  writeFileSync(join(dir, 'a2a.proto'), stripped);
  const facts = protoFacts('a2a.proto', [dir], 'lf.a2a.v1');
  for (const [message, fields] of Object.entries(required)) {
    for (const field of fields) {
      const fact = facts.messages[message]?.[field];
      if (!fact) throw new Error(`REQUIRED ${message}.${field} is not a field`);
      fact.required = true;
    }
  }
  const out = new URL('../proto/spec-facts.json', import.meta.url);
  writeFileSync(out, JSON.stringify(facts, null, 2) + '\n');
  console.log(`wrote ${out.pathname}: ${Object.keys(facts.messages).length} messages`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
