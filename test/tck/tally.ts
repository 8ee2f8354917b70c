/**
 * Counts a TCK run from its JUnit report (`reports/junitreport.xml`, or pytest's `--junitxml`):
 * passed, failed, skipped, xfailed, with the tests that `--transport` filtered out (skipped as
 * "Transport '…' not configured") counted apart, so a one-transport run shows that transport's
 * own totals. Usage: node dist/test/tck/tally.js <junit.xml>  (docs/conformance.md).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The totals of one run. */
export interface Tally {
  passed: number;
  failed: number;
  skipped: number;
  xfailed: number;
  /** Skipped only because `--transport` left their transport out. */
  filtered: number;
  /** `classname::name — message` of each failed test. */
  failures: string[];
}

const TESTCASE = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
const FILTERED = /transport\b.*not configured/i;

/** Tallies a JUnit XML report of the TCK. */
export function tally(xml: string): Tally {
  const result: Tally = { passed: 0, failed: 0, skipped: 0, xfailed: 0, filtered: 0, failures: [] };
  for (const [, attributes = '', body = ''] of xml.matchAll(TESTCASE)) {
    const outcome = /<(failure|error|skipped)\b([^>]*)/.exec(body);
    if (!outcome) {
      result.passed++;
      continue;
    }
    const message = decode(attribute(outcome[2] ?? '', 'message'));
    if (outcome[1] === 'skipped') {
      if (attribute(outcome[2] ?? '', 'type') === 'pytest.xfail') result.xfailed++;
      else if (FILTERED.test(message)) result.filtered++;
      else result.skipped++;
      continue;
    }
    result.failed++;
    const test = `${attribute(attributes, 'classname')}::${decode(attribute(attributes, 'name'))}`;
    result.failures.push(`${test} — ${message.split('\n')[0] ?? ''}`);
  }
  return result;
}

function attribute(attributes: string, name: string): string {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1] ?? '';
}

function decode(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#10;/g, '\n')
    .replace(/&amp;/g, '&');
}

/** Prints the tally of the report named on the command line. */
function main(file: string | undefined): void {
  if (file === undefined || file === '--help') {
    console.error('Usage: node dist/test/tck/tally.js <junit.xml>');
    process.exit(2);
  }
  const t = tally(readFileSync(file, 'utf8'));
  console.log(
    `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped` +
      (t.xfailed ? `, ${t.xfailed} xfailed` : '') +
      (t.filtered ? ` (${t.filtered} tests of other transports filtered out)` : ''),
  );
  for (const failure of t.failures) console.log(`  FAILED ${failure}`);
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(realpathSync(entry)).href) {
  main(process.argv[2]);
}
