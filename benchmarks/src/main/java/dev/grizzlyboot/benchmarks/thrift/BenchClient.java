package dev.grizzlyboot.benchmarks.thrift;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.grizzlyboot.thrift.ThriftProtocol;
import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftClientBuilder;
import dev.grizzlyboot.thrift.observation.MicrometerCallObserver;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import io.micrometer.observation.ObservationRegistry;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * The clients under test. Each gives one {@link Calculator.Iface} per load thread: libthrift's
 * blocking {@code TSocket} with {@code TFramedTransport}, one socket per thread; or one shared
 * proxy of our pooled client with as many connections as threads.
 */
enum BenchClient {
    TSOCKET("libthrift TSocket") {
        @Override
        Session open(int port, int connections, ThriftProtocol protocol, ObservationRegistry observations)
                throws Exception {
            List<TTransport> transports = new ArrayList<>();
            List<Calculator.Iface> callers = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", port, 10_000));
                transport.open();
                transports.add(transport);
                callers.add(new Calculator.Client(protocol.factory().getProtocol(transport)));
            }
            return new Session(callers, () -> transports.forEach(TTransport::close));
        }
    },
    GRIZZLY("grizzly-boot ThriftClient") {
        @Override
        Session open(int port, int connections, ThriftProtocol protocol, ObservationRegistry observations) {
            ThriftClientBuilder builder = ThriftClient.builder().server("127.0.0.1", port)
                    .protocol(protocol).minConnections(connections).maxConnections(connections)
                    .readTimeout(Duration.ofSeconds(10));
            if (observations != null) {
                builder.callObserver(MicrometerCallObserver.client(observations));
            }
            ThriftClient client = builder.build();
            Calculator.Iface proxy = client.proxy(Calculator.Iface.class);
            List<Calculator.Iface> callers = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                callers.add(proxy);
            }
            return new Session(callers, client);
        }
    };

    /** The per-thread callers of one benchmark cell and how to release them. */
    record Session(List<Calculator.Iface> callers, AutoCloseable closer) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            closer.close();
        }
    }

    final String label;

    BenchClient(String label) {
        this.label = label;
    }

    /** Opens the callers; ours reports every call to {@code observations} when it is not null. */
    abstract Session open(int port, int connections, ThriftProtocol protocol, ObservationRegistry observations)
            throws Exception;
}
