import { fstatSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SqliteTaskStore } from './task-store.js';
import { WalSync, type SyncFile } from './wal-sync.js';

let dir: string;
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

function walFile(): string {
  dir = mkdtempSync(join(tmpdir(), 'a2a-wal-sync-'));
  const path = join(dir, 'tasks.db-wal');
  writeFileSync(path, 'wal');
  return path;
}

/** A sync that finishes when the test says so. */
function heldSync() {
  const calls: { fd: number; done: (error: Error | null) => void }[] = [];
  const sync: SyncFile = (fd, done) => calls.push({ fd, done });
  return { calls, sync };
}

describe('WalSync', () => {
  it('starts at most one sync per interval and never a second while one runs', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { calls, sync } = heldSync();
    const wal = new WalSync(walFile(), 50, sync);
    wal.committed();
    wal.committed(); // one runs
    expect(calls).toHaveLength(1);
    vi.advanceTimersByTime(100);
    wal.committed(); // still running, however long ago it started
    expect(calls).toHaveLength(1);
    calls[0]?.done(null);
    wal.committed(); // done, and the interval has passed
    expect(calls).toHaveLength(2);
    calls[1]?.done(null);
    vi.advanceTimersByTime(20);
    wal.committed(); // done, but less than an interval since it started
    expect(calls).toHaveLength(2);
    vi.advanceTimersByTime(40);
    wal.committed();
    expect(calls).toHaveLength(3);
    calls[2]?.done(new Error('EIO')); // a failed sync is not retried at once, nor thrown
    wal.committed();
    expect(calls).toHaveLength(3);
    wal.close();
  });

  it('syncs the WAL file itself', () => {
    const path = walFile();
    const { calls, sync } = heldSync();
    const wal = new WalSync(path, 50, sync);
    wal.committed();
    expect(fstatSync(calls[0]?.fd as number).ino).toBe(statSync(path).ino);
    calls[0]?.done(null);
    wal.close();
  });

  it('closes its descriptor only once a sync in flight is over, and syncs no more', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { calls, sync } = heldSync();
    const wal = new WalSync(walFile(), 50, sync);
    wal.committed();
    const fd = calls[0]?.fd as number;
    wal.close();
    expect(fstatSync(fd).isFile()).toBe(true); // still open: the sync uses it
    calls[0]?.done(null);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the close is asynchronous
    expect(() => fstatSync(fd)).toThrow(/EBADF/);
    vi.advanceTimersByTime(100);
    wal.committed();
    expect(calls).toHaveLength(1);
  });

  it('does nothing, and does not throw, while there is no WAL file', () => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-wal-sync-'));
    const { calls, sync } = heldSync();
    const wal = new WalSync(join(dir, 'missing.db-wal'), 50, sync);
    expect(() => wal.committed()).not.toThrow();
    expect(calls).toHaveLength(0);
    wal.close();
  });

  it("is started by the SQLite store's commits, on the store's WAL file", async () => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-wal-sync-'));
    const path = join(dir, 'tasks.db');
    const store = new SqliteTaskStore({ path });
    const wal = (store as unknown as { walSync: WalSync }).walSync;
    try {
      expect(wal.started).toBe(0);
      await store.create(
        { tenant: '', owner: '' },
        { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_SUBMITTED' } },
      );
      expect(wal.started).toBe(1);
      expect(wal.file).toBe(`${path}-wal`);
    } finally {
      await store.close();
    }
  });
});
