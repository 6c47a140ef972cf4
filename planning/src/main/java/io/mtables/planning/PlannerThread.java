package io.mtables.planning;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The one thread a TableEnvironment is created and used on. Flink's planner keeps Calcite's
 * metadata provider in a thread-local set up where the planner is created: a query planned on any
 * other thread fails with "NPE: metadataHandlerProvider" (seen with SELECT DISTINCT). The thread
 * keeps its creator's context class loader, through which Flink finds its factories.
 */
public final class PlannerThread {

    private final ExecutorService executor;
    private volatile Thread thread;

    public PlannerThread(String name) {
        ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
        executor =
                Executors.newSingleThreadExecutor(
                        task -> {
                            Thread created = new Thread(task, name);
                            created.setDaemon(true);
                            created.setContextClassLoader(classLoader);
                            thread = created;
                            return created;
                        });
    }

    /**
     * Runs {@code work} on the thread and waits for it (at once when already on it); its runtime
     * exceptions are thrown as they were.
     */
    public <T> T call(Callable<T> work) {
        try {
            if (Thread.currentThread() == thread) {
                return work.call();
            }
            return executor.submit(work).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Flink's planner", e);
        } catch (ExecutionException e) {
            throw rethrown(e.getCause());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Starts {@code work} on the thread without waiting for it: {@link #await} its result. Work
     * started from the thread itself would wait for itself, so it is refused.
     */
    public <T> Future<T> start(Callable<T> work) {
        if (Thread.currentThread() == thread) {
            throw new IllegalStateException("work started on its own planner thread");
        }
        return executor.submit(work);
    }

    /** The result of work {@link #start}ed; its runtime exceptions are thrown as they were. */
    public static <T> T await(Future<T> started) {
        try {
            return started.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Flink's planner", e);
        } catch (ExecutionException e) {
            throw rethrown(e.getCause());
        }
    }

    private static RuntimeException rethrown(Throwable cause) {
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(cause);
    }
}
