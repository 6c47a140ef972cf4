package io.mtables.ddl;

import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import java.util.UUID;

/** SELECT over a table whose warehouse is on an S3-compatible object store (S3Proxy, started by bin/test at MT_TEST_S3_ENDPOINT). */
@QuarkusTest
@TestProfile(SelectOnObjectStoreIT.ObjectStore.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
class SelectOnObjectStoreIT extends SelectIT {

  /** A warehouse of its own in the store's bucket for each run. */
  public static class ObjectStore implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      String endpoint = System.getenv("MT_TEST_S3_ENDPOINT");
      if (endpoint == null || endpoint.isBlank()) {
        throw new IllegalStateException("MT_TEST_S3_ENDPOINT is not set: run the tests with bin/test, which starts the object store (bin/objectstore)");
      }
      return Map.of(
          "mt.paimon.warehouse", "s3://mtables/" + UUID.randomUUID() + "/warehouse",
          "mt.s3.endpoint", endpoint,
          "mt.s3.path-style-access", "true",
          "mt.s3.access-key", "mt",
          "mt.s3.secret-key", "mt-secret-key");
    }
  }
}
