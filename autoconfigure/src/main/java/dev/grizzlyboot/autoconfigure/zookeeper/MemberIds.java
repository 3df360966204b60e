package dev.grizzlyboot.autoconfigure.zookeeper;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.core.env.Environment;

/**
 * The default member id: {@code spring.application.name}, host and process id, readable in
 * {@code zkCli} and stable for the life of the process. Several application contexts in one JVM
 * (two demo instances, cached test contexts) would share that, and member ids must be unique among
 * live members, so the second and later ones get a sequence number. Thread-safe.
 */
final class MemberIds {

    private static final AtomicInteger contexts = new AtomicInteger();

    private MemberIds() {
    }

    static String next(Environment environment) {
        String application = environment.getProperty("spring.application.name", "application");
        int sequence = contexts.incrementAndGet();
        String id = application + "-" + host() + "-" + ProcessHandle.current().pid() + (sequence > 1 ? "-" + sequence : "");
        return id.replace('/', '_');
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
