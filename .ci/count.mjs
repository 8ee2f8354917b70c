// Sums vitest JSON reports and failed CI steps into the closing line "N passed, N failed, N skipped".
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [dir, stepFailuresArg] = process.argv.slice(2);
let passed = 0;
let failed = Number(stepFailuresArg ?? 0);
let skipped = 0;
const expected = ['unit.json'];
for (const name of expected) {
  if (!existsSync(join(dir, name))) {
    console.log(`missing report ${name}: the suite did not run (type-check or lint failed?)`);
    failed++;
  }
}
for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A suite that failed to load counts as a failure even with no failed test in it.
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) failed++;
  }
}
if (existsSync(join(dir, 'steps'))) process.stdout.write(readFileSync(join(dir, 'steps'), 'utf8'));
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
