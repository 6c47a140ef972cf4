package io.mtables.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Dockerfiles: the Flink image carries the versions the jobs are compiled against and checks
 * every jar it downloads; the service image runs non-root with a health check.
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

    /**
     * Every jar the Flink image downloads is checked against a SHA-256 in the recipe, and that
     * checksum is the one of the artifact in the local Maven repository where the build has it
     * (Maven checked its copy against Central's own checksum when it downloaded it).
     */
    @Test
    void everyJarTheFlinkImageDownloadsIsCheckedAgainstItsSha256() throws Exception {
        String recipe = Files.readString(ROOT.resolve("deploy/flink/Dockerfile"));
        Map<String, String> downloads = new LinkedHashMap<>(); // file name -> path under Maven
        Matcher curl =
                Pattern.compile("curl -fsSLO \"\\$MAVEN/([^\"]+/([^/\"]+))\"").matcher(recipe);
        while (curl.find()) {
            downloads.put(curl.group(2), curl.group(1));
        }
        Map<String, String> checksums = new LinkedHashMap<>();
        Matcher line =
                Pattern.compile("(?m)^\\s+([0-9a-f]{64}) (\\S+\\.jar) \\\\$").matcher(recipe);
        while (line.find()) {
            checksums.put(line.group(2), line.group(1));
        }
        assertThat(downloads).as("the jars the recipe downloads").hasSize(5);
        assertThat(checksums.keySet())
                .as("a SHA-256 for each download, and none other")
                .containsExactlyInAnyOrderElementsOf(downloads.keySet());
        assertThat(recipe).contains("| sha256sum -c --strict -");
        Path repository = Path.of(System.getProperty("user.home"), ".m2", "repository");
        int compared = 0;
        for (var download : downloads.entrySet()) {
            Path local = repository.resolve(download.getValue());
            if (Files.exists(local)) {
                assertThat(checksums.get(download.getKey()))
                        .as(download.getKey() + " as the local Maven repository holds it")
                        .isEqualTo(sha256(local));
                compared++;
            }
        }
        // Paimon's, its S3 file IO's and Hadoop's jars are dependencies of the build: always there
        // (the Kafka SQL connector's bundle is not).
        assertThat(compared)
                .as("jars compared with the local repository's")
                .isGreaterThanOrEqualTo(4);
    }

    private static String sha256(Path file) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /**
     * mvn package -Psbom gives each service (and nothing else) a CycloneDX bill of materials beside
     * its quarkus-app, which its image carries; one a build left names the service and every
     * library it runs with by version and hash, none of the test scope.
     */
    @Test
    void everyServiceIsBuiltWithABillOfMaterialsItsImageCarries() throws Exception {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        assertThat(pom)
                .contains("<mt.sbom.skip>true</mt.sbom.skip>", "<id>sbom</id>")
                .contains("<artifactId>cyclonedx-maven-plugin</artifactId>")
                .contains("<goal>makeBom</goal>", "<outputName>bom</outputName>")
                .contains("<includeTestScope>false</includeTestScope>");
        assertThat(Files.readString(ROOT.resolve("deploy/Dockerfile")))
                .contains("COPY --chown=185 ${APP}/../bom.json /deployments/sbom.json")
                .contains("mvn -B package -DskipTests -Psbom");
        for (String service : ConfigKeys.SERVICES) {
            assertThat(Files.readString(ROOT.resolve(service + "/pom.xml")))
                    .as(service + " makes its bill of materials with -Psbom")
                    .contains("<mt.sbom.skip>false</mt.sbom.skip>");
            Path bom = ROOT.resolve(service + "/target/bom.json");
            if (Files.exists(bom)) {
                assertBillOfMaterials(service, bom);
            }
        }
    }

    private static void assertBillOfMaterials(String service, Path bom) throws Exception {
        JsonNode document = Yaml.MAPPER.readTree(bom.toFile());
        assertThat(document.path("bomFormat").asText()).isEqualTo("CycloneDX");
        assertThat(document.path("metadata").path("component").path("name").asText())
                .isEqualTo(service);
        List<String> libraries = new ArrayList<>();
        for (JsonNode component : document.path("components")) {
            String name = component.path("name").asText();
            assertThat(component.path("version").asText()).as(name + "'s version").isNotBlank();
            assertThat(component.path("hashes")).as(name + "'s hashes").isNotEmpty();
            libraries.add(component.path("group").asText() + ":" + name);
        }
        assertThat(libraries)
                .as(service + "'s libraries")
                .contains("io.quarkus:quarkus-core", "org.apache.kafka:kafka-clients")
                .doesNotContain("org.junit.jupiter:junit-jupiter-api");
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
