package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.planning.Warehouse;
import io.mtables.schemas.catalog.TableDefinition;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.fs.Path;
import org.apache.paimon.options.Options;

/**
 * Where a table's data, checkpoints and savepoints live. State is kept per table and per query
 * ({@link QueryState}): {@code <checkpoint-dir>/<table>/<fingerprint>} and {@code
 * <savepoint-dir>/<table>/<fingerprint>}.
 */
public class Locations {

    private final java.nio.file.Path dataDir;
    private final Warehouse warehouse;
    private final Optional<String> savepoints;
    private final String checkpoints;

    public Locations(JobManagerConfig config) {
        this.dataDir = java.nio.file.Path.of(config.dataDir()).toAbsolutePath().normalize();
        var s3 = config.s3();
        this.warehouse =
                Warehouse.withS3(
                        config.paimon()
                                .warehouse()
                                .orElse(dataDir.resolve("warehouse").toUri().toString()),
                        s3.endpoint(),
                        s3.pathStyleAccess(),
                        s3.accessKey(),
                        s3.secretKey());
        this.savepoints =
                config.flink()
                        .savepointDir()
                        .or(() -> Optional.of(dataDir.resolve("savepoints").toUri().toString()))
                        .filter(s -> !s.isBlank());
        this.checkpoints =
                config.flink()
                        .checkpointDir()
                        .orElse(dataDir.resolve("checkpoints").toUri().toString());
    }

    public java.nio.file.Path dataDir() {
        return dataDir;
    }

    public Warehouse warehouse() {
        return warehouse;
    }

    /** Where savepoints of this query of the table go; empty when savepoints are disabled. */
    public Optional<String> savepointDir(TableDefinition definition) {
        return savepoints.map(root -> join(root, definition));
    }

    /** Where checkpoints of this query of the table go. */
    public String checkpointDir(TableDefinition definition) {
        return join(checkpoints, definition);
    }

    /**
     * The newest savepoint or retained checkpoint of this query of the table: where its streaming
     * job starts from. Read through Paimon's file IO with the warehouse's file-system settings, so
     * a local directory and an object store ({@code s3://}) are looked at the same way.
     *
     * @throws UncheckedIOException when the directories cannot be read (the start is tried again)
     */
    public Optional<String> latestState(TableDefinition definition) {
        Optional<Candidate> checkpoint =
                newest(checkpointDir(definition), "chk-"); // <dir>/<job>/chk-N/_metadata
        Optional<Candidate> savepoint =
                savepointDir(definition).flatMap(dir -> newest(dir, "savepoint-"));
        return Stream.of(checkpoint, savepoint)
                .flatMap(Optional::stream)
                .max(Comparator.comparingLong(Candidate::modified))
                .map(Candidate::uri);
    }

    /**
     * The newest completed checkpoint of one job of the table's query ({@code <checkpoint
     * dir>/<table>/<query fingerprint>/<job>/chk-N}); empty when it has none yet.
     *
     * @throws UncheckedIOException when the directory cannot be read
     */
    public Optional<String> latestCheckpoint(String table, String queryFingerprint, String jobId) {
        String root = checkpoints + (checkpoints.endsWith("/") ? "" : "/");
        return newest(root + table + "/" + queryFingerprint + "/" + jobId, "chk-")
                .map(Candidate::uri);
    }

    /**
     * The metadata of a savepoint or checkpoint ({@code <state>/_metadata}): which operators it
     * holds state of. Read through the warehouse's file IO, as {@link #latestState} looks.
     *
     * @throws UncheckedIOException when it cannot be read
     */
    public CheckpointMetadata metadataOf(String state) {
        Path metadata = new Path(state, "_metadata");
        try (FileIO files =
                        FileIO.get(
                                metadata,
                                CatalogContext.create(
                                        Options.fromMap(warehouse.fileSystemOptions())));
                DataInputStream in = new DataInputStream(files.newInputStream(metadata))) {
            return Checkpoints.loadCheckpointMetadata(in, Locations.class.getClassLoader(), state);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + metadata + ": " + e.getMessage(), e);
        } catch (Exception e) {
            throw new UncheckedIOException(
                    "cannot read " + metadata + ": " + e.getMessage(), new IOException(e));
        }
    }

    private record Candidate(String uri, long modified) {}

    /**
     * The newest {@code <prefix>*}/_metadata under {@code dir}, by the time it was written: {@code
     * <dir>/<job>/chk-N} for checkpoints (grouped by job), {@code <dir>/savepoint-*} for
     * savepoints.
     */
    private Optional<Candidate> newest(String dir, String prefix) {
        Path root = new Path(dir);
        try {
            FileIO files =
                    FileIO.get(
                            root,
                            CatalogContext.create(Options.fromMap(warehouse.fileSystemOptions())));
            if (!files.exists(root)) {
                return Optional.empty();
            }
            List<FileStatus> states = new ArrayList<>();
            for (FileStatus child : files.listDirectories(root)) {
                if (child.getPath().getName().startsWith(prefix)) {
                    states.add(child);
                } else {
                    states.addAll(List.of(files.listDirectories(child.getPath())));
                }
            }
            Optional<Candidate> newest = Optional.empty();
            for (FileStatus state : states) {
                Path metadata = new Path(state.getPath(), "_metadata");
                if (state.getPath().getName().startsWith(prefix) && files.exists(metadata)) {
                    Candidate candidate =
                            new Candidate(
                                    state.getPath().toString(),
                                    files.getFileStatus(metadata).getModificationTime());
                    if (newest.isEmpty() || candidate.modified() > newest.get().modified()) {
                        newest = Optional.of(candidate);
                    }
                }
            }
            return newest;
        } catch (IOException e) {
            // Not "no state": starting afresh would read the sources again from their start.
            throw new UncheckedIOException(
                    "cannot look for saved state in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static String join(String root, TableDefinition definition) {
        return root
                + (root.endsWith("/") ? "" : "/")
                + definition.table()
                + "/"
                + QueryState.fingerprint(definition);
    }
}
