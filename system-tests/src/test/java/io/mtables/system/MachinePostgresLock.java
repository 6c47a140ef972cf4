package io.mtables.system;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;

/**
 * Who uses the machine's PostgreSQL, across the test JVMs of bin/test's two lanes: a test that only
 * reads and writes its own schema shares it; ChaosIT, which crashes it, has it alone, so that no
 * other test sees its outage. A file lock (the operating system's, released when a JVM dies) under
 * the module's target/, which both lanes' JVMs share; held from a class's start to its end.
 */
final class MachinePostgresLock implements AutoCloseable {

    private static final Path FILE = Path.of("target/machine-postgres.lock").toAbsolutePath();

    private final FileChannel channel;
    private final FileLock lock;

    private MachinePostgresLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Waits until no test crashes PostgreSQL, then holds it shared. */
    static MachinePostgresLock shared() throws IOException {
        return acquire(true);
    }

    /** Waits until no other test uses PostgreSQL, then holds it alone. */
    static MachinePostgresLock alone() throws IOException {
        return acquire(false);
    }

    private static MachinePostgresLock acquire(boolean shared) throws IOException {
        Files.createDirectories(FILE.getParent());
        FileChannel channel =
                FileChannel.open(
                        FILE,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
        Instant start = Instant.now();
        FileLock lock = channel.lock(0, Long.MAX_VALUE, shared);
        Duration waited = Duration.between(start, Instant.now());
        if (waited.toSeconds() >= 1) {
            System.out.printf(
                    "[time] waiting for the machine's PostgreSQL: %.1f s%n",
                    waited.toMillis() / 1000.0);
        }
        return new MachinePostgresLock(channel, lock);
    }

    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }
}
