package io.mtables.jobmanager.jobs;

import io.mtables.planning.Warehouse;
import io.mtables.jobmanager.JobManagerConfig;
import io.mtables.schemas.catalog.TableDefinition;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where a table's data, checkpoints and savepoints live. State is kept per table and per query
 * ({@link QueryState}): {@code <checkpoint-dir>/<table>/<fingerprint>} and {@code
 * <savepoint-dir>/<table>/<fingerprint>}.
 */
public class Locations {

  private final Path dataDir;
  private final Warehouse warehouse;
  private final Optional<String> savepoints;
  private final String checkpoints;

  public Locations(JobManagerConfig config) {
    this.dataDir = Path.of(config.dataDir()).toAbsolutePath().normalize();
    var s3 = config.s3();
    this.warehouse = Warehouse.withS3(config.paimon().warehouse().orElse(dataDir.resolve("warehouse").toUri().toString()), s3.endpoint(), s3.pathStyleAccess(),
        s3.accessKey(), s3.secretKey());
    this.savepoints = config.flink().savepointDir().or(() -> Optional.of(dataDir.resolve("savepoints").toUri().toString())).filter(s -> !s.isBlank());
    this.checkpoints = config.flink().checkpointDir().orElse(dataDir.resolve("checkpoints").toUri().toString());
  }

  public Path dataDir() {
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
   * The newest savepoint or retained checkpoint of this query of the table, when they lie on the
   * local file system (the embedded cluster's case): where its streaming job starts from.
   */
  public Optional<String> latestState(TableDefinition definition) {
    Optional<Candidate> checkpoint = newest(checkpointDir(definition), "chk-", 3); // <dir>/<job>/chk-N/_metadata
    Optional<Candidate> savepoint = savepointDir(definition).flatMap(dir -> newest(dir, "savepoint-", 2));
    return Stream.of(checkpoint, savepoint).flatMap(Optional::stream).max(Comparator.comparing(Candidate::time)).map(Candidate::uri);
  }

  private record Candidate(String uri, FileTime time) {}

  private static Optional<Candidate> newest(String dir, String prefix, int depth) {
    if (!dir.startsWith("file:")) {
      return Optional.empty();
    }
    Path root = Path.of(URI.create(dir));
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.walk(root, depth)) {
      return files
          .filter(p -> p.getFileName().toString().equals("_metadata") && p.getParent().getFileName().toString().startsWith(prefix))
          .map(p -> new Candidate(p.getParent().toUri().toString(), modified(p)))
          .max(Comparator.comparing(Candidate::time));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static FileTime modified(Path path) {
    try {
      return Files.getLastModifiedTime(path);
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }

  private static String join(String root, TableDefinition definition) {
    return root + (root.endsWith("/") ? "" : "/") + definition.table() + "/" + QueryState.fingerprint(definition);
  }
}
