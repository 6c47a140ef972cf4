package io.mtables.jobmanager;

import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import java.util.UUID;

/**
 * The same pipelines with the Paimon warehouse, checkpoints and savepoints on an S3-compatible
 * object store (S3Proxy, started by bin/test at MT_TEST_S3_ENDPOINT): the job manager's catalogs,
 * the streaming and batch jobs in the cluster, and the tests' own reads reach the tables through
 * Paimon's S3 file IO; the cluster writes and restores state through Flink's S3 file system (a
 * plugin); SUSPEND and RESUME find the savepoint on the store.
 */
@QuarkusTest
@TestProfile(PipelinesOnObjectStoreIT.ObjectStore.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
class PipelinesOnObjectStoreIT extends PipelinesIT {

  @Override
  String stateLocation() {
    return "s3://mtables/";
  }

  /** A warehouse of its own in the store's bucket for each run. */
  public static class ObjectStore implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      String endpoint = System.getenv("MT_TEST_S3_ENDPOINT");
      if (endpoint == null || endpoint.isBlank()) {
        throw new IllegalStateException("MT_TEST_S3_ENDPOINT is not set: run the tests with bin/test, which starts the object store (bin/objectstore)");
      }
      String run = "s3://mtables/" + UUID.randomUUID();
      return Map.of(
          "mt.paimon.warehouse", run + "/warehouse",
          "mt.flink.checkpoint-dir", run + "/checkpoints",
          "mt.flink.savepoint-dir", run + "/savepoints",
          "mt.s3.endpoint", endpoint,
          "mt.s3.path-style-access", "true",
          "mt.s3.access-key", "mt",
          "mt.s3.secret-key", "mt-secret-key");
    }
  }
}
