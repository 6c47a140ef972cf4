package io.mtables.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What each process of a run says when something did not recover: its readiness, and for one not
 * ready its threads (jcmd's Thread.print, into system-tests/target), so a hang can be read after
 * the processes are gone.
 */
final class ProcessDiagnosis {

    private ProcessDiagnosis() {}

    static String of(ExampleServices services) {
        List<String> lines = new ArrayList<>();
        for (ServiceProcess process : services.processes()) {
            ServiceProcess.Readiness readiness = process.readiness();
            String line = process.module() + ":" + process.port() + " " + readiness.status();
            if (!readiness.up()) {
                line += " " + readiness.body() + threads(process);
            }
            lines.add(line);
        }
        return String.join("\n", lines);
    }

    /**
     * The lines of a service's log that say why it stopped (the last 6 of ERROR and the exceptions'
     * causes: a process started again appends to its log), so a failure that CI's summary prints
     * carries its reason after the log is gone.
     */
    static String errorLines(Path log) {
        try (Stream<String> lines = Files.lines(log)) {
            List<String> errors =
                    lines.filter(
                                    line ->
                                            line.contains("ERROR")
                                                    || line.startsWith("Caused by:")
                                                    || line.contains("Exception:"))
                            .map(line -> line.length() > 300 ? line.substring(0, 300) : line)
                            .toList();
            errors = errors.subList(Math.max(0, errors.size() - 6), errors.size());
            return errors.isEmpty() ? "" : "\n  " + String.join("\n  ", errors);
        } catch (IOException | UncheckedIOException e) {
            return " (log unreadable: " + e.getMessage() + ")";
        }
    }

    private static String threads(ServiceProcess process) {
        if (!process.isAlive()) {
            return " (not running)";
        }
        Path dump =
                Path.of("target")
                        .resolve(
                                process.module()
                                        + "-"
                                        + process.port()
                                        + "-threads-"
                                        + Instant.now().toEpochMilli()
                                        + ".txt");
        try {
            Process jcmd =
                    new ProcessBuilder(
                                    Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                            .toString(),
                                    String.valueOf(process.pid()),
                                    "Thread.print")
                            .redirectErrorStream(true)
                            .redirectOutput(dump.toFile())
                            .start();
            jcmd.waitFor(30, TimeUnit.SECONDS);
            return " (threads: " + dump.toAbsolutePath() + ", " + Files.size(dump) + " bytes)";
        } catch (IOException e) {
            return " (no thread dump: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return " (no thread dump: interrupted)";
        }
    }
}
