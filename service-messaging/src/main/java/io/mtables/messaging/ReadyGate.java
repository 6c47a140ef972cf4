package io.mtables.messaging;

import java.util.concurrent.CountDownLatch;

/**
 * Closed while a service reads its state back from Kafka at start; consumers wait at it rather than
 * fail or skip records, and readiness reports it.
 */
public final class ReadyGate {

  private final CountDownLatch open = new CountDownLatch(1);
  private volatile String state = "starting";

  /** What the service is doing while the gate is closed, or "ready". */
  public String state() {
    return state;
  }

  public void progress(String state) {
    this.state = state;
  }

  public void open() {
    state = "ready";
    open.countDown();
  }

  public boolean isOpen() {
    return open.getCount() == 0;
  }

  /** Blocks until the gate opens. */
  public void await() {
    try {
      open.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for start-up (" + state + ")", e);
    }
  }
}
