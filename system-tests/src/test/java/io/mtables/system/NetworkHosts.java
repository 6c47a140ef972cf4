package io.mtables.system;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Hosts of their own on this machine: a Linux network namespace per host, each with one veth
 * interface on a bridge and an address of a private /24, as separate machines on one switch. A
 * process started in a host ({@link Host#command}) sees only that host's interfaces: its {@code
 * 127.0.0.1} is its own, and it reaches the others by their addresses only. The test's own JVM
 * stays outside and reaches every host over the bridge. Needs root (CAP_NET_ADMIN) and iproute2;
 * {@link #close} removes all of it.
 */
final class NetworkHosts implements AutoCloseable {

    /** One host: its namespace and address. */
    record Host(String name, String namespace, String address) {
        /** {@code command} run inside this host's network namespace. */
        List<String> command(List<String> command) {
            List<String> inHost = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
            inHost.addAll(command);
            return inHost;
        }
    }

    private static final String BRIDGE = "mt-br0";
    private static final String SUBNET = "10.213.7.";
    private final Map<String, Host> hosts = new LinkedHashMap<>();

    private NetworkHosts() {}

    /**
     * Creates the bridge (at {@code 10.213.7.1}) and a host per name ({@code 10.213.7.10} on),
     * first removing what an earlier run that was killed left behind.
     *
     * @throws IllegalStateException with the command's own message when the kernel or the user may
     *     not create them
     */
    static NetworkHosts create(List<String> names) {
        NetworkHosts network = new NetworkHosts();
        network.removeLeftovers(names);
        run("ip", "link", "add", BRIDGE, "type", "bridge");
        run("ip", "addr", "add", SUBNET + "1/24", "dev", BRIDGE);
        run("ip", "link", "set", BRIDGE, "up");
        int next = 10;
        for (String name : names) {
            Host host = new Host(name, namespace(name), SUBNET + next++);
            String veth = veth(name);
            run("ip", "netns", "add", host.namespace());
            run(
                    "ip",
                    "link",
                    "add",
                    veth,
                    "type",
                    "veth",
                    "peer",
                    "name",
                    "eth0",
                    "netns",
                    host.namespace());
            run("ip", "link", "set", veth, "master", BRIDGE, "up");
            run("ip", "-n", host.namespace(), "addr", "add", host.address() + "/24", "dev", "eth0");
            run("ip", "-n", host.namespace(), "link", "set", "eth0", "up");
            run("ip", "-n", host.namespace(), "link", "set", "lo", "up");
            network.hosts.put(name, host);
        }
        return network;
    }

    Host host(String name) {
        Host host = hosts.get(name);
        if (host == null) {
            throw new IllegalArgumentException("no host " + name + "; there are " + hosts.keySet());
        }
        return host;
    }

    List<Host> hosts() {
        return List.copyOf(hosts.values());
    }

    /**
     * Whether this machine lets us create network namespaces (root, a kernel with them, iproute2).
     */
    static String whyNotAvailable() {
        String probe = "mt-probe-" + ProcessHandle.current().pid();
        try {
            run("ip", "netns", "add", probe);
            run("ip", "netns", "del", probe);
            return null;
        } catch (RuntimeException e) {
            return e.getMessage();
        }
    }

    @Override
    public void close() {
        removeLeftovers(List.copyOf(hosts.keySet()));
        hosts.clear();
    }

    private void removeLeftovers(List<String> names) {
        for (String name : names) {
            runQuietly(
                    "ip",
                    "netns",
                    "del",
                    namespace(name)); // removes its end of the veth, and so the pair
        }
        runQuietly("ip", "link", "del", BRIDGE);
    }

    private static String namespace(String name) {
        return "mt-" + name;
    }

    /** Interface names have at most 15 characters: host names at most 11. */
    private static String veth(String name) {
        String veth = "mtv-" + name;
        if (veth.length() > 15) {
            throw new IllegalArgumentException(
                    "host name "
                            + name
                            + " is longer than 11 characters (its interface would be "
                            + veth
                            + ")");
        }
        return veth;
    }

    private static void run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output =
                    new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                            .strip();
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException(
                    String.join(" ", command) + " cannot run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
        }
    }

    private static void runQuietly(String... command) {
        try {
            new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            // nothing to remove
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
