/** A push-to-pull queue: the producer pushes events, one reader iterates them until closed. */
export class EventQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: (() => void) | undefined;
  private closed = false;

  push(item: T): void {
    this.items.push(item);
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let next = 0;
    for (;;) {
      if (next < this.items.length) {
        yield this.items[next++] as T;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}
