/** Request-When records in memory (tests, or a process that need not survive restarts). */
import type { RequestWhenRecord, RequestWhenStore } from '../request-when-types.js';

/** Keeps Request-When records in this process: a restart forgets them. */
export class MemoryRequestWhenStore implements RequestWhenStore {
  private readonly records = new Map<string, RequestWhenRecord>();

  put(record: RequestWhenRecord): Promise<void> {
    this.records.set(record.id, structuredClone(record));
    return Promise.resolve();
  }

  pending(): Promise<RequestWhenRecord[]> {
    const open = [...this.records.values()].filter(
      (r) => r.status === 'waiting' || r.status === 'sending',
    );
    return Promise.resolve(open.map((r) => structuredClone(r)));
  }

  get(id: string): Promise<RequestWhenRecord | undefined> {
    const record = this.records.get(id);
    return Promise.resolve(record && structuredClone(record));
  }

  claim(id: string): Promise<boolean> {
    const record = this.records.get(id);
    if (record?.status !== 'waiting') return Promise.resolve(false);
    record.status = 'sending';
    return Promise.resolve(true);
  }

  seen(id: string, lastEventId: string): Promise<void> {
    const record = this.records.get(id);
    if (record) record.lastEventId = lastEventId;
    return Promise.resolve();
  }
}
