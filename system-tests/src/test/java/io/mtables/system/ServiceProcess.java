package io.mtables.system;

import io.mtables.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One packaged service ({@code <module>/target/quarkus-app/quarkus-run.jar}) running in a JVM of
 * its own, as a user runs it: the tests start it, stop it gracefully, or kill it with SIGKILL.
 */
final class ServiceProcess implements AutoCloseable {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String module;
  private final int port;
  private final List<String> properties;
  private Process process;

  ServiceProcess(String module, int port, String... properties) {
    this.module = module;
    this.port = port;
    this.properties = List.of(properties);
  }

  int port() {
    return port;
  }

  String baseUri() {
    return "http://127.0.0.1:" + port;
  }

  /** Starts the service and waits until /q/health/ready says UP. */
  ServiceProcess start() throws IOException, InterruptedException {
    Path jar = ROOT.resolve(module).resolve("target/quarkus-app/quarkus-run.jar");
    if (!Files.exists(jar)) {
      throw new IllegalStateException(jar + " does not exist: package the services first (mvn verify builds them before this module).");
    }
    Path log = ROOT.resolve("system-tests/target").resolve(module + "-" + port + ".log");
    Files.createDirectories(log.getParent());
    List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx512m", "-Dquarkus.http.port=" + port));
    properties.forEach(p -> command.add("-D" + p));
    command.addAll(List.of("-jar", jar.toString()));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().put(KafkaBroker.BOOTSTRAP_SERVERS_ENV, KafkaBroker.bootstrapServers());
    process = builder.start();
    awaitReady(Duration.ofSeconds(120), log);
    return this;
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
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }

  private void awaitReady(Duration timeout, Path log) throws InterruptedException, IOException {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(module + " exited with " + process.exitValue() + " while starting; see " + log);
      }
      try {
        HttpResponse<String> ready =
            HTTP.send(HttpRequest.newBuilder(URI.create(baseUri() + "/q/health/ready")).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
        if (ready.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    kill();
    throw new IllegalStateException(module + " was not ready within " + timeout + "; see " + log);
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
