package io.mtables.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Dockerfiles: the Flink image carries the versions the jobs are compiled against; the service
 * image runs non-root with a health check.
 */
class ContainerRecipesTest {

    private static final Path ROOT = Yaml.root();

    @Test
    void theFlinkImageHasTheVersionsOfTheBuild() throws Exception {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        String flinkImage = Files.readString(ROOT.resolve("deploy/flink/Dockerfile"));
        assertThat(flinkImage)
                .contains("FROM flink:" + property(pom, "flink.version") + "-")
                .contains("paimon-flink-2.1-" + property(pom, "paimon.version") + ".jar")
                .contains("paimon-s3-" + property(pom, "paimon-s3.version") + ".jar")
                .contains("/opt/flink/plugins/s3-fs-presto")
                .contains(
                        "flink-sql-connector-kafka-"
                                + property(pom, "flink-connector-kafka.version")
                                + ".jar")
                .contains("hadoop-client-runtime-" + property(pom, "hadoop.version") + ".jar");
        String flinkVersion = property(pom, "flink.version");
        assertThat(Files.readString(ROOT.resolve("k8s/base/flink.yaml")))
                .contains(
                        "flinkVersion: v" + flinkVersion.replaceAll("^(\\d+)\\.(\\d+).*", "$1_$2"))
                .contains("image: mtables/flink:" + flinkVersion);
    }

    @Test
    void theServiceImageRunsAsAUserWithAHealthCheckOnReadiness() throws Exception {
        String image = Files.readString(ROOT.resolve("deploy/Dockerfile"));
        assertThat(image)
                .containsPattern("(?m)^USER 185$")
                .contains("HEALTHCHECK")
                .contains("/q/health/ready")
                .contains("ARG APP=${SERVICE}/target/quarkus-app")
                .contains("COPY --chown=185 ${APP}/lib/");
        for (String service : ConfigKeys.SERVICES) {
            assertThat(Files.readString(ROOT.resolve("k8s/base/" + service + ".yaml")))
                    .contains("runAsNonRoot: true", "image: mtables/" + service + ":0.1.0");
        }
    }

    /**
     * mvn package -Dquarkus.container-image.build=true: each service builds its image from the same
     * recipe, named as k8s/ and compose use it.
     */
    @Test
    void quarkusBuildsEachServiceImageFromTheRecipe() throws Exception {
        for (String service : ConfigKeys.SERVICES) {
            assertThat(Files.readString(ROOT.resolve(service + "/pom.xml")))
                    .as(service)
                    .contains("<artifactId>quarkus-container-image-docker</artifactId>");
            assertThat(
                            Files.readString(
                                    ROOT.resolve(
                                            service
                                                    + "/src/main/resources/application.properties")))
                    .as(service)
                    .contains(
                            "quarkus.container-image.group=mtables",
                            "quarkus.container-image.tag=0.1.0",
                            "quarkus.docker.dockerfile-jvm-path=../deploy/Dockerfile",
                            "quarkus.docker.build-args.SERVICE=" + service,
                            "quarkus.docker.build-args.APP=target/quarkus-app");
            assertThat(Files.readString(ROOT.resolve("docker-compose.yml")))
                    .contains("image: mtables/" + service);
        }
    }

    private static String property(String pom, String name) {
        Matcher matcher = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
        assertThat(matcher.find()).as(name + " in pom.xml").isTrue();
        return matcher.group(1);
    }
}
