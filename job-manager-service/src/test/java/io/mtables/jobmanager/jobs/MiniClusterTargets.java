package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.flink.FlinkTarget;
import java.lang.reflect.Proxy;
import java.util.Optional;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/** A Flink mini cluster for the jobs' tests, and a target whose client submits to it. */
final class MiniClusterTargets {

    private MiniClusterTargets() {}

    /** A started cluster of one task manager with two slots. */
    static MiniCluster start() throws Exception {
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setNumSlotsPerTaskManager(2)
                                .build());
        cluster.start();
        return cluster;
    }

    /**
     * A target whose client submits to {@code cluster} and which reads a job's failure there, as
     * the job manager's targets read it from Flink's REST API; anything else is unsupported.
     */
    static FlinkTarget of(MiniCluster cluster) {
        Configuration client = new Configuration();
        client.set(DeploymentOptions.TARGET, "remote");
        client.set(RestOptions.ADDRESS, "127.0.0.1");
        client.set(RestOptions.PORT, cluster.getRestAddress().join().getPort());
        return (FlinkTarget)
                Proxy.newProxyInstance(
                        FlinkTarget.class.getClassLoader(),
                        new Class<?>[] {FlinkTarget.class},
                        (proxy, method, args) -> {
                            switch (method.getName()) {
                                case "clientConfiguration":
                                    return client;
                                case "failureCause":
                                    return failureCause(
                                            cluster, JobID.fromHexString((String) args[0]));
                                default:
                                    throw new UnsupportedOperationException(method.getName());
                            }
                        });
    }

    private static Optional<String> failureCause(MiniCluster cluster, JobID job) throws Exception {
        return cluster.requestJobResult(job)
                .get()
                .getSerializedThrowable()
                .map(
                        thrown -> {
                            StringBuilder text = new StringBuilder();
                            for (Throwable t =
                                            thrown.deserializeError(
                                                    MiniClusterTargets.class.getClassLoader());
                                    t != null;
                                    t = t.getCause()) {
                                text.append(t).append("; ");
                            }
                            return text.toString();
                        });
    }
}
