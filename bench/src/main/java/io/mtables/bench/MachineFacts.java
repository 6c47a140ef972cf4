package io.mtables.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/** The facts a figure needs beside it: when, on what machine, with which versions. */
final class MachineFacts {

    private MachineFacts() {}

    /** The facts alone, titled with the first argument (for a bench run by bin/bench itself). */
    public static void main(String[] args) {
        print(args[0]);
    }

    static void print(String what) {
        System.out.println("== " + what);
        System.out.println("date        " + Instant.now());
        System.out.println("cores       " + Runtime.getRuntime().availableProcessors());
        System.out.println("memory      " + memory());
        System.out.println(
                "java        "
                        + System.getProperty("java.runtime.version")
                        + " ("
                        + System.getProperty("java.vm.name")
                        + ")");
        System.out.println(
                "os          "
                        + System.getProperty("os.name")
                        + " "
                        + System.getProperty("os.version"));
    }

    private static String memory() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).get(0).replaceAll("\\s+", " ");
        } catch (Exception e) {
            return "unknown";
        }
    }
}
