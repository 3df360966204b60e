package dev.grizzlyboot.thrift;

import java.io.IOException;
import java.time.Duration;

import dev.grizzlyboot.testsupport.ChildJvm;
import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TException;

/**
 * A Thrift client in a JVM of its own ({@link ChildJvm}) that resolves host names through the
 * test's {@link dev.grizzlyboot.testsupport.HostsFile}: built once for the host name and port
 * given as arguments, it answers each request line with one {@code add(1, 2)} call, replying
 * {@code OK <sum>} or {@code FAILED <exception's simple name>: <message>}. Calls run one at a time,
 * on the thread that reads the requests.
 */
public final class ResolvingClientMain {

    private ResolvingClientMain() {
    }

    public static void main(String[] args) throws IOException {
        try (ThriftClient client = ThriftClient.builder().server(args[0], Integer.parseInt(args[1]))
                .connectTimeout(Duration.ofSeconds(1)).build()) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            ChildJvm.serve(request -> {
                try {
                    return "OK " + calculator.add(1, 2);
                } catch (TException e) {
                    return "FAILED " + e.getClass().getSimpleName() + ": " + e.getMessage();
                }
            });
        }
    }
}
