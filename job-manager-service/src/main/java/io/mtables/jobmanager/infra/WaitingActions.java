package io.mtables.jobmanager.infra;

import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/**
 * The actions events ask of the control thread (a plan, a tick), in arrival order. Each is run by a
 * task of its own on the control thread, or earlier by a poll, which runs the waiting ones between
 * the tables it looks at: a poll of many running jobs takes seconds on a loaded machine (20 TPC-H
 * tables on 2 cores: about 9 s), and a new table's plan waited for a whole one before its job was
 * compiled.
 */
final class WaitingActions {

    private final Queue<FutureTask<?>> waiting = new ConcurrentLinkedQueue<>();
    private final Executor control;

    WaitingActions(Executor control) {
        this.control = control;
    }

    /** Queues {@code work} for the control thread; the future ends once it ran. */
    <T> Future<T> submit(Callable<T> work) {
        FutureTask<T> task = new FutureTask<>(work);
        waiting.add(task);
        control.execute(this::runAll);
        return task;
    }

    /** Runs every action waiting, oldest first; on the control thread only. Whether any ran. */
    boolean runAll() {
        boolean ran = false;
        for (FutureTask<?> task = waiting.poll(); task != null; task = waiting.poll()) {
            task.run();
            ran = true;
        }
        return ran;
    }
}
