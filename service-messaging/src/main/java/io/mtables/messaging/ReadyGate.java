package io.mtables.messaging;

import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Closed while a service reads its state back from Kafka, at start or again when that state is in
 * doubt; consumers wait at it rather than fail or skip records, and readiness reports it.
 */
public final class ReadyGate {

    private static final Logger LOG = Logger.getLogger(ReadyGate.class);

    private boolean open;
    private volatile boolean standingBy;
    private volatile String state = "starting";

    /** What the service is doing while the gate is closed, or "ready". */
    public String state() {
        return state;
    }

    public void progress(String state) {
        this.state = state;
        standingBy = false;
    }

    public synchronized void open() {
        state = "ready";
        standingBy = false;
        open = true;
        notifyAll();
    }

    /**
     * Closed, but ready in the sense of a health check: this instance waits to take over from the
     * active one of its service (ready to, and nothing is wrong), saying so.
     */
    public synchronized void standBy(String state) {
        this.state = state;
        standingBy = true;
    }

    /** Waiting to take over from the active instance of its service. */
    public boolean isStandingBy() {
        return standingBy;
    }

    /** Open, or standing by: what a readiness check reports as UP. */
    public boolean isReady() {
        return standingBy || isOpen();
    }

    /** Closed again, saying why: the service is not ready until it opens. */
    public synchronized void close(String state) {
        this.state = state;
        standingBy = false;
        open = false;
    }

    public synchronized boolean isOpen() {
        return open;
    }

    /**
     * Runs {@code step} (reading a service's state back, on the caller's thread) until it returns:
     * every failure is logged and closes the gate saying why and when it is tried again; the step
     * opens the gate itself when done. Returns early only when the thread is interrupted (the
     * service stops).
     */
    public void runUntilDone(String what, Duration pause, Runnable step) {
        while (true) {
            try {
                step.run();
                return;
            } catch (RuntimeException e) {
                String failure =
                        what
                                + " failed (tried again in "
                                + pause.toSeconds()
                                + " s): "
                                + e.getMessage();
                LOG.warn(failure, e);
                close(failure);
                try {
                    Thread.sleep(pause.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Blocks until the gate is open. */
    public synchronized void await() {
        while (!open) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(
                        "interrupted while waiting for start-up (" + state + ")", e);
            }
        }
    }
}
