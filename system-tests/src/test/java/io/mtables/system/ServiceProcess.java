package io.mtables.system;

import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One packaged service ({@code <module>/target/quarkus-app/quarkus-run.jar}) running in a JVM of
 * its own, as a user runs it: the tests start it, stop it gracefully, or kill it with SIGKILL.
 */
final class ServiceProcess implements AutoCloseable {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * ddl-service serves /q/* on a management port of its own (docs/security.md): its port plus
     * this. It keeps that port (18xxx + 2000) below Linux's ephemeral range (32768 and up): a port
     * there can be any outgoing connection's local port at the moment a service starts again, and
     * its bind then fails (ChaosIT failed so once, at +20000).
     */
    private static final int MANAGEMENT_PORT_OFFSET = 2000;

    private final String module;
    private final int port;
    private final List<String> properties;
    private NetworkHosts.Host host;
    private String bootstrapServers;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private Path workingDirectory;
    private Process process;

    /** Whether the test killed the process it runs now (not an exit of its own). */
    private volatile boolean killed;

    ServiceProcess(String module, int port, String... properties) {
        this.module = module;
        this.port = port;
        this.properties = new ArrayList<>(List.of(properties));
    }

    /**
     * Runs the service on a host of its own (its network namespace, listening on its address), with
     * a working directory of its own, reaching the broker at {@code bootstrapServers}.
     */
    ServiceProcess on(NetworkHosts.Host host, Path workingDirectory, String bootstrapServers) {
        this.host = host;
        this.workingDirectory = workingDirectory;
        this.bootstrapServers = bootstrapServers;
        return this;
    }

    /** More system properties ({@code key=value}), as the constructor's. */
    ServiceProcess withProperties(List<String> more) {
        properties.addAll(more);
        return this;
    }

    /** Settings passed in the environment (secrets, which a command line shows to every user). */
    ServiceProcess withEnvironment(Map<String, String> variables) {
        environment.putAll(variables);
        return this;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    String module() {
        return module;
    }

    int port() {
        return port;
    }

    String baseUri() {
        return "http://" + address() + ":" + port;
    }

    /** Where /q/* answers: ddl-service's management port, the other services' only one. */
    String managementUri() {
        return "http://" + address() + ":" + managementPort();
    }

    private boolean hasManagementPort() {
        return module.equals("ddl-service");
    }

    private int managementPort() {
        return hasManagementPort() ? port + MANAGEMENT_PORT_OFFSET : port;
    }

    String address() {
        return host == null ? "127.0.0.1" : host.address();
    }

    /** Starts the service and waits until /q/health/ready says UP. */
    ServiceProcess start() throws IOException, InterruptedException {
        long began = System.nanoTime();
        launch();
        printTime("start services", began);
        return this;
    }

    /**
     * Prints how long a phase of a test took since {@code began} (System.nanoTime), in the form
     * bin/lib/test-report.sh adds up per class: {@code [time] <phase>: <seconds> s}.
     */
    static void printTime(String phase, long began) {
        System.out.printf(
                Locale.ROOT, "[time] %s: %.1f s%n", phase, (System.nanoTime() - began) / 1e9);
    }

    private void launch() throws IOException, InterruptedException {
        killed = false;
        Path jar = ROOT.resolve(module).resolve("target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(
                    jar
                            + " does not exist: package the services first (mvn verify builds them"
                            + " before this module).");
        }
        Path log = ROOT.resolve("system-tests/target").resolve(module + "-" + port + ".log");
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx512m"));
        command.addAll(JVM_OPTIONS);
        // A temporary directory of the run's own, not the machine's /tmp: a service killed with
        // SIGKILL leaves its scratch files there, and the job manager's tests look in /tmp for
        // leftovers of their own warm-up (a run beside them in another checkout once failed it).
        command.add(
                "-Djava.io.tmpdir="
                        + Files.createDirectories(ROOT.resolve("system-tests/target/service-tmp")));
        command.add("-Dquarkus.http.port=" + port);
        if (host != null) {
            command.add("-Dquarkus.http.host=" + host.address());
        }
        if (hasManagementPort()) {
            command.add("-Dquarkus.management.port=" + managementPort());
            if (host != null) {
                command.add("-Dquarkus.management.host=" + host.address());
            }
            command.add(TestCredentials.ACCOUNT_PROPERTY);
            command.add(TestCredentials.ADMIN_PROPERTY);
            // Any free port for PostgreSQL clients: two instances run side by side.
            command.add("-Dmt.wire.port=0");
        }
        properties.forEach(p -> command.add("-D" + p));
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder builder =
                new ProcessBuilder(host == null ? command : host.command(command))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        if (workingDirectory != null) {
            builder.directory(Files.createDirectories(workingDirectory).toFile());
        }
        builder.environment()
                .put(
                        KafkaBroker.BOOTSTRAP_SERVERS_ENV,
                        bootstrapServers == null
                                ? KafkaBroker.bootstrapServers()
                                : bootstrapServers);
        builder.environment().putAll(environment);
        process = builder.start();
        // Bounds a start that hangs, not a figure: on the 2-core CI machine, with four other
        // services and a cluster starting beside it, a job manager once took 71 s to reach its
        // embedded Flink cluster alone and missed a 120 s bound (OracleAcrossServicesIT).
        awaitReady(Duration.ofSeconds(240), log);
    }

    /**
     * Starts services side by side and returns when all are ready: each waits only for the broker
     * and its own readiness, so the slowest sets the time, not the sum.
     */
    static void startTogether(List<ServiceProcess> services) {
        long began = System.nanoTime();
        CompletableFuture.allOf(
                        services.stream()
                                .map(service -> CompletableFuture.runAsync(service::startUnchecked))
                                .toArray(CompletableFuture[]::new))
                .join();
        printTime("start services", began);
    }

    /** Stops services side by side (SIGTERM each, as {@link #stop()}). */
    static void stopTogether(List<ServiceProcess> services) {
        long began = System.nanoTime();
        CompletableFuture.allOf(
                        services.stream()
                                .map(service -> CompletableFuture.runAsync(service::stopUnchecked))
                                .toArray(CompletableFuture[]::new))
                .join();
        printTime("stop services", began);
    }

    private void stopUnchecked() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted stopping " + module, e);
        }
    }

    private void startUnchecked() {
        try {
            launch();
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot start " + module + ": " + e.getMessage(), e);
        }
    }

    /** Ends the service as an operator would (SIGTERM, graceful shutdown). */
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** Ends the service as a crash would (SIGKILL: no shutdown hooks, no commits). */
    void kill() throws InterruptedException {
        killed = true;
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor();
        }
    }

    /** Whether the process was killed by {@link #kill} and not started again. */
    boolean killedOnPurpose() {
        return killed;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    /** The status code and body of /q/health/ready, or 0 and the error while it does not answer. */
    Readiness readiness() {
        try {
            HttpResponse<String> response =
                    HTTP.send(
                            HttpRequest.newBuilder(URI.create(managementUri() + "/q/health/ready"))
                                    .timeout(Duration.ofSeconds(2))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return new Readiness(response.statusCode(), response.body());
        } catch (IOException e) {
            return new Readiness(0, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Readiness(0, "interrupted");
        }
    }

    /** What a readiness probe saw: UP (200) and, for an instance waiting to take over, standby. */
    record Readiness(int status, String body) {
        boolean up() {
            return status == 200;
        }

        boolean standingBy() {
            return body.contains("standby: another instance");
        }
    }

    private void awaitReady(Duration timeout, Path log) {
        try {
            Awaitility.await()
                    .atMost(timeout)
                    .pollInterval(Duration.ofMillis(250))
                    .until(
                            () -> {
                                if (!process.isAlive()) {
                                    throw new IllegalStateException(
                                            module
                                                    + " exited with "
                                                    + process.exitValue()
                                                    + " while starting; see "
                                                    + log
                                                    + ProcessDiagnosis.errorLines(log));
                                }
                                try {
                                    return HTTP.send(
                                                            HttpRequest.newBuilder(
                                                                            URI.create(
                                                                                    managementUri()
                                                                                            + "/q/health/ready"))
                                                                    .timeout(Duration.ofSeconds(2))
                                                                    .build(),
                                                            HttpResponse.BodyHandlers.ofString())
                                                    .statusCode()
                                            == 200;
                                } catch (IOException notYet) {
                                    return false; // not listening yet
                                }
                            });
        } catch (ConditionTimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException(
                    module + " was not ready within " + timeout + "; see " + log);
        }
    }

    /**
     * The services' extra JVM options ({@code -Dmt.services.jvm-options}, split at spaces; empty
     * for the JVM's defaults, as {@code bin/chaos} runs them to time recoveries against their
     * goal). By default only the quick compiler: the build starts 5-10 services at once on 2 cores,
     * and they were ready after 16-18 s instead of 26-34 s; they compile queries, the data work is
     * the Flink cluster's. For the same reason no service warms up ({@code mt.warm-up=false}): the
     * warm-ups' sample statements, plans, job compiles and the embedded cluster's sample jobs ran
     * 51 times in a build, 404 s in all by their own logs, beside the tests, for a speed no test
     * measures (their own tests are the modules' and bin/bench's). The embedded cluster too runs
     * the quick compiler only: its jobs live a minute or two, and TPC-H's 22 took 84 CPU seconds
     * there instead of 153 (the test 130 s instead of 182). C1 alone reserves only 48 MB of code
     * cache, which a Quarkus build once filled (a failed build): the tiered default, 240 MB, again.
     */
    private static final List<String> JVM_OPTIONS =
            List.of(
                            System.getProperty(
                                            "mt.services.jvm-options",
                                            "-XX:TieredStopAtLevel=1"
                                                    + " -XX:ReservedCodeCacheSize=240m"
                                                    + " -Dmt.warm-up=false"
                                                    + " -Dmt.flink.embedded.jvm-options"
                                                    + "=-XX:TieredStopAtLevel=1"
                                                    + ",-XX:ReservedCodeCacheSize=240m")
                                    .split(" "))
                    .stream()
                    .filter(option -> !option.isBlank())
                    .toList();

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
