package io.mtables.messaging;

/**
 * Closed while a service reads its state back from Kafka, at start or again when that state is in
 * doubt; consumers wait at it rather than fail or skip records, and readiness reports it.
 */
public final class ReadyGate {

  private boolean open;
  private volatile String state = "starting";

  /** What the service is doing while the gate is closed, or "ready". */
  public String state() {
    return state;
  }

  public void progress(String state) {
    this.state = state;
  }

  public synchronized void open() {
    state = "ready";
    open = true;
    notifyAll();
  }

  /** Closed again, saying why: the service is not ready until it opens. */
  public synchronized void close(String state) {
    this.state = state;
    open = false;
  }

  public synchronized boolean isOpen() {
    return open;
  }

  /** Blocks until the gate is open. */
  public synchronized void await() {
    while (!open) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for start-up (" + state + ")", e);
      }
    }
  }
}
