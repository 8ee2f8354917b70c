/**
 * Summarizes V8 `.cpuprofile` files (from `node --cpu-prof`): the functions with the most self
 * time. Also a command: `node dist/bench-run/bench/profile-summary.js FILE_OR_DIR...`.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One function's share of the samples. */
export interface HotSpot {
  name: string;
  where: string;
  selfMs: number;
  share: number;
}

/** The top `limit` functions by self time of one profile. */
export function hotSpots(
  profile: CpuProfile,
  limit = 15,
): { busyMs: number; idleMs: number; top: HotSpot[] } {
  const byNode = new Map<number, ProfileNode>(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, { name: string; where: string; micros: number }>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const frame = byNode.get(id)?.callFrame;
    if (frame === undefined) return;
    // Waiting for I/O is not work: shares are of the busy time.
    if (frame.functionName === '(idle)') {
      idle += delta;
      return;
    }
    busy += delta;
    const name = frame.functionName || '(anonymous)';
    const where = frame.url === '' ? '' : `${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    const key = `${name} ${where}`;
    const entry = self.get(key) ?? { name, where, micros: 0 };
    entry.micros += delta;
    self.set(key, entry);
  });
  const top = [...self.values()]
    .sort((a, b) => b.micros - a.micros)
    .slice(0, limit)
    .map((e) => ({
      name: e.name,
      where: e.where,
      selfMs: e.micros / 1000,
      share: e.micros / busy,
    }));
  return { busyMs: busy / 1000, idleMs: idle / 1000, top };
}

function shortUrl(url: string): string {
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const marker = path.lastIndexOf('/node_modules/');
  if (marker >= 0) return path.slice(marker + 1);
  const run = path.indexOf('/dist/bench-run/');
  return run >= 0 ? path.slice(run + '/dist/bench-run/'.length) : path;
}

/** Text summaries of every profile in `paths` (files or directories). */
export function summarizeProfiles(paths: readonly string[], limit = 15): string {
  const files = paths.flatMap((p) =>
    statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => f.endsWith('.cpuprofile'))
          .map((f) => join(p, f))
      : [p],
  );
  const out = ['## CPU profiles of the a2a-kit servers (top self time, share of busy time)'];
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    const { busyMs, idleMs, top } = hotSpots(profile, limit);
    const name = relative(process.cwd(), file) || basename(file);
    out.push('', `${name} (${busyMs.toFixed(0)} ms busy, ${idleMs.toFixed(0)} ms idle)`);
    for (const h of top) {
      out.push(
        `  ${(h.share * 100).toFixed(1).padStart(5)} %  ${h.selfMs.toFixed(0).padStart(6)} ms  ${h.name}  ${h.where}`,
      );
    }
  }
  return out.join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(summarizeProfiles(process.argv.slice(2)));
}
