/**
 * An unbounded async queue: producers `push` without waiting, one consumer iterates until `close`.
 * The tool phase uses it to stream events live, in completion order.
 */
export class Channel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: (() => void) | undefined;
  private closed = false;

  /** Queues an item; ignored after close. */
  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.wake();
  }

  /** Ends the iteration once the queued items are consumed. */
  close(): void {
    this.closed = true;
    this.wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  private wake(): void {
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve?.();
  }
}
