package io.mtables.planning;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

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
