/** Results of the scenarios: tables of medians, checks against the targets, and their printing. */
import type { HttpGenerator } from './load/http-load.js';

/** One table of a scenario. */
export interface Section {
  title: string;
  columns: string[];
  rows: string[][];
  /** A line under the table saying how to read it. */
  note?: string;
}

/** One target of the performance issues (8, 16), measured. */
export interface Check {
  target: string;
  measured: string;
  pass: boolean;
}

/** What a scenario produced. */
export interface ScenarioResult {
  sections: Section[];
  checks: Check[];
  /** Raw numbers, for `--json`. */
  data: Record<string, unknown>;
}

/** The median (the mean of the two middle values for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] as number) + upper) / 2;
}

/** A number for a table: thousands separated, `digits` decimals; `—` when not finite. */
export function fmt(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** A ratio such as `6.12×`. */
export function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '—';
}

/** A byte count in B / KB / MB. */
export function bytes(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  if (abs >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(1)} MB`;
  if (abs >= 1024) return `${(value / 1024).toFixed(2)} KB`;
  return `${Math.round(value)} B`;
}

/** A table as aligned text (first column left, the others right). */
export function renderSection(section: Section): string {
  const table = [section.columns, ...section.rows];
  const widths = section.columns.map((_, c) =>
    Math.max(...table.map((row) => (row[c] ?? '').length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
      .join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const out = [`## ${section.title}`, '', line(section.columns), rule, ...section.rows.map(line)];
  if (section.note !== undefined) out.push('', section.note);
  return out.join('\n');
}

/** The checks as PASS/MISS lines. */
export function renderChecks(checks: readonly Check[], smoke: boolean): string {
  const head = smoke ? '## Targets (smoke run: printed, not meaningful)' : '## Targets';
  const lines = checks.map((c) => `${c.pass ? 'PASS' : 'MISS'}  ${c.target}: ${c.measured}`);
  return [head, '', ...lines].join('\n');
}

/**
 * The sentence naming the HTTP load generator(s) that produced `results`, for a table's note;
 * the autocannon fallback is flagged (its ceiling is its own, not the server's).
 */
export function generatorNote(results: Iterable<{ generator: HttpGenerator }>): string {
  const used = new Set<HttpGenerator>();
  for (const r of results) used.add(r.generator);
  if (used.size === 0) return '';
  const names = [...used].sort().join(' and ');
  const flag = used.has('autocannon')
    ? ' WARNING: autocannon (JavaScript) saturates before a fast server; figures near its ceiling are its own.'
    : '';
  return ` Load generator: ${names}.${flag}`;
}

/**
 * The `--baseline` check of one figure (higher is better): ours within 5 % of the baseline's,
 * or nothing when the run has no baseline.
 */
export function baselineCheck(
  what: string,
  ours: number,
  baseline: { label: string; value: number } | undefined,
  unit: string,
): Check[] {
  if (baseline === undefined) return [];
  return [
    {
      target: `${what} within 5 % of ${baseline.label}`,
      measured: `${ratio(ours / baseline.value)} (${fmt(ours)} vs ${fmt(baseline.value)} ${unit})`,
      pass: ours / baseline.value >= 0.95,
    },
  ];
}
