package io.mtables.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A class-data archive (AppCDS) of one packaged service, shared by its starts in a build. The first
 * start that finds none records what it loads ({@code -XX:+RecordDynamicDumpInfo}) and, once ready,
 * is asked to write the archive ({@code jcmd VM.cds dynamic_dump}, into a file of its own, moved
 * into place when complete); every later start maps it ({@code -XX:SharedArchiveFile}), which
 * spares it reading, parsing and verifying those classes: ddl-service was ready on about half the
 * CPU (docs/operations.md, "How fast a service starts"). Written at readiness rather than at exit,
 * the archive is there for the next start even when the tests kill the first one. Both test lanes
 * share the archives; a claim file lets one process record each. An archive's name carries its
 * jar's modification time, so a new build writes a new one (the JVM would refuse one of other jars
 * anyway, and run without it).
 */
final class ClassDataArchive {

    /** Whether the services run with archives: {@code bin/chaos} times recoveries without. */
    static final boolean ENABLED =
            Boolean.parseBoolean(System.getProperty("mt.services.class-data-archives", "true"));

    /** A claim older than this was left by a test JVM that ended before its service was ready. */
    private static final Duration STALE_CLAIM = Duration.ofMinutes(15);

    private final Path archive;
    private final Path claim;
    private boolean recording;

    private ClassDataArchive(Path directory, String name) {
        this.archive = directory.resolve(name + ".jsa");
        this.claim = directory.resolve(name + ".claim");
    }

    static ClassDataArchive of(String module, Path jar, Path directory) {
        try {
            Files.createDirectories(directory);
            return new ClassDataArchive(
                    directory, module + "-" + Files.getLastModifiedTime(jar).toMillis());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The options of the next start: map the archive, or record for it when no other process does,
     * or none.
     */
    synchronized List<String> jvmOptions() {
        if (!ENABLED) {
            return List.of();
        }
        if (Files.exists(archive)) {
            return List.of("-XX:SharedArchiveFile=" + archive);
        }
        try {
            releaseIfStale();
            Files.createFile(claim);
            recording = true;
            return List.of("-XX:+RecordDynamicDumpInfo");
        } catch (FileAlreadyExistsException another) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The process started with {@link #jvmOptions()} is ready: if it recorded, it writes the
     * archive now. A dump that fails leaves no archive, and the next start records again.
     */
    synchronized void ready(long pid) throws IOException, InterruptedException {
        if (!recording) {
            return;
        }
        recording = false;
        Path writing = archive.resolveSibling(archive.getFileName() + ".writing");
        try {
            Process jcmd =
                    new ProcessBuilder(
                                    Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                            .toString(),
                                    String.valueOf(pid),
                                    "VM.cds",
                                    "dynamic_dump",
                                    writing.toString())
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .start();
            boolean done = jcmd.waitFor(2, TimeUnit.MINUTES);
            if (!done) {
                jcmd.destroyForcibly().waitFor();
            } else if (jcmd.exitValue() == 0
                    && Files.isRegularFile(writing)
                    && Files.size(writing) > 0) {
                Files.move(writing, archive, StandardCopyOption.ATOMIC_MOVE);
            }
        } finally {
            Files.deleteIfExists(writing);
            Files.deleteIfExists(claim);
        }
    }

    /** The process ended before it was ready: another start may record. */
    synchronized void exited() {
        if (recording) {
            recording = false;
            try {
                Files.deleteIfExists(claim);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void releaseIfStale() throws IOException {
        if (Files.exists(claim)
                && Files.getLastModifiedTime(claim)
                                .compareTo(FileTime.from(Instant.now().minus(STALE_CLAIM)))
                        < 0) {
            Files.deleteIfExists(claim);
        }
    }
}
