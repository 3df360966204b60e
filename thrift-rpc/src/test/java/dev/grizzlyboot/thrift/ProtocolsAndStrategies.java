package dev.grizzlyboot.thrift;

import java.util.ArrayList;
import java.util.List;

import dev.grizzlyboot.thrift.server.IoStrategy;
import org.junit.jupiter.params.provider.Arguments;

/** Every protocol with every server I/O strategy, as arguments for parameterized tests. */
final class ProtocolsAndStrategies {

    private ProtocolsAndStrategies() {
    }

    /** {@code (ThriftProtocol, IoStrategy)} pairs, all of them. */
    static List<Arguments> all() {
        List<Arguments> cases = new ArrayList<>();
        for (ThriftProtocol protocol : ThriftProtocol.values()) {
            for (IoStrategy strategy : IoStrategy.values()) {
                cases.add(Arguments.of(protocol, strategy));
            }
        }
        return cases;
    }
}
