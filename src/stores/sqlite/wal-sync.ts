/**
 * Writes the WAL file to disk in the background, between checkpoints.
 *
 * With `synchronous = NORMAL` a commit only writes its pages to the WAL file; the file is synced
 * when a checkpoint copies it into the database, inside the commit that reached
 * `wal_autocheckpoint`. By then the kernel still holds most of the ~40 MB written since the last
 * checkpoint, and that `fsync` took 50–60 ms on the bench machine (strace), with the event loop
 * and every request of the turn waiting: it was the SQLite store's p99. Syncing the file from
 * libuv's thread pool after commits leaves the checkpoint's own `fsync` little to write.
 *
 * It only makes committed pages durable sooner; SQLite's own syncs are unchanged. SQLite holds no
 * POSIX lock on the WAL file (its locks are on the database and `-shm` files), so the descriptor
 * opened and closed here cannot release one.
 */
import { close, fdatasync, openSync } from 'node:fs';

/** A background data sync of one file descriptor (node:fs `fdatasync`). */
export type SyncFile = (fd: number, done: (error: Error | null) => void) => void;

/** Syncs one WAL file after commits, at most once per interval and never twice at once. */
export class WalSync {
  private fd: number | undefined;
  private syncing = false;
  private closed = false;
  private lastStart = -Infinity;
  private syncs = 0;

  constructor(
    /** The WAL file (`<database>-wal`). */
    readonly file: string,
    /** Least time between the starts of two syncs. */
    private readonly intervalMs = 50,
    private readonly sync: SyncFile = fdatasync,
  ) {}

  /** Called after each commit: starts a sync unless one runs or ran less than an interval ago. */
  readonly committed = (): void => {
    if (this.syncing || this.closed) return;
    const now = performance.now();
    if (now - this.lastStart < this.intervalMs) return;
    if (this.fd === undefined) {
      try {
        this.fd = openSync(this.file, 'r');
      } catch {
        // No WAL file (not in WAL mode, or removed): nothing to sync; try again later.
        this.lastStart = now;
        return;
      }
    }
    this.syncing = true;
    this.lastStart = now;
    this.syncs++;
    const fd = this.fd;
    this.sync(fd, () => {
      // A failed sync changes nothing: SQLite's checkpoint still syncs the file itself.
      this.syncing = false;
      if (this.closed) this.release();
    });
  };

  /** Syncs started so far. */
  get started(): number {
    return this.syncs;
  }

  /** Stops syncing; the descriptor is closed once a sync in flight has finished. */
  close(): void {
    this.closed = true;
    if (!this.syncing) this.release();
  }

  private release(): void {
    const { fd } = this;
    this.fd = undefined;
    if (fd !== undefined) close(fd, () => undefined);
  }
}
