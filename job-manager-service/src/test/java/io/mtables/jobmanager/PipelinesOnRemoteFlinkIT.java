package io.mtables.jobmanager;

import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** The same pipelines, run on a remote Flink session cluster (a separate JVM the job manager did not start). */
@QuarkusTest
@TestProfile(PipelinesOnRemoteFlinkIT.RemoteFlink.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
class PipelinesOnRemoteFlinkIT extends PipelinesIT {

  /** Restricts the remote cluster resource to this test class. */
  public static class RemoteFlink implements QuarkusTestProfile {
    @Override
    public java.util.List<TestResourceEntry> testResources() {
      return java.util.List.of(new TestResourceEntry(RemoteFlinkTestResource.class));
    }
  }

  @Override
  int flinkPort() {
    return RemoteFlinkTestResource.PORT;
  }

  @Override
  java.nio.file.Path clusterLog() {
    return RemoteFlinkTestResource.HOME.resolve("cluster.log");
  }
}
