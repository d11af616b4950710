/**
 * A one-shot gate: `open()` resolves `opened` for every waiter, now and later. The recorder uses gates to line
 * up what a tool is doing on the worker with what the client sends, so each history has the same shape on
 * every recording.
 */
export class Gate {
  /** Resolves once `open()` was called. */
  readonly opened: Promise<void>;
  private resolve!: () => void;

  constructor() {
    this.opened = new Promise<void>((resolve) => (this.resolve = resolve));
  }

  /** Opens the gate; later calls do nothing. */
  open(): void {
    this.resolve();
  }
}
