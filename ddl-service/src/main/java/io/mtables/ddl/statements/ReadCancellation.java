package io.mtables.ddl.statements;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Whether the client waiting for a read on this thread asked to cancel it (a PostgreSQL cancel
 * request): the wait for the read ({@link QueryRunner}) looks, and stops the read. Carried on the
 * waiting thread, as a door's statement is answered on it from start to end, so that the statements
 * between the door and the read need not carry it.
 */
public final class ReadCancellation {

    private static final ThreadLocal<BooleanSupplier> REQUESTED = new ThreadLocal<>();

    private ReadCancellation() {}

    /** {@code work}, during which {@code requested} says whether its client cancelled. */
    public static <T> T whileCancellable(BooleanSupplier requested, Supplier<T> work) {
        BooleanSupplier outer = REQUESTED.get();
        REQUESTED.set(requested);
        try {
            return work.get();
        } finally {
            if (outer == null) {
                REQUESTED.remove();
            } else {
                REQUESTED.set(outer);
            }
        }
    }

    /** Whether this thread's client asked to cancel what it waits for. */
    static boolean requested() {
        BooleanSupplier requested = REQUESTED.get();
        return requested != null && requested.getAsBoolean();
    }
}
