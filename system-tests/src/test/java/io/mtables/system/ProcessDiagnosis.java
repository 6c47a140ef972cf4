package io.mtables.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
