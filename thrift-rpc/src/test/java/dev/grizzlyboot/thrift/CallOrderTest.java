package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Calls sent back to back on one connection are answered one by one, in the order sent. */
class CallOrderTest {
    /** More than a connection may have pending, so reading must pause and resume on the way. */
    private static final int CALLS = 80;

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void pipelinedCallsComeBackInOrderWithTheirSequenceIds(IoStrategy strategy) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        try (ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(handler))
                .host("127.0.0.1").port(0).ioStrategy(strategy).selectorThreads(1).workerThreads(8)
                .build().start();
             Socket socket = new Socket("127.0.0.1", server.port())) {
            // The first call is slow: were later calls run beside it, their replies would overtake it.
            ByteArrayOutputStream requests = new ByteArrayOutputStream();
            requests.write(RawFrames.addRequest(1, CalculatorHandler.SLEEP, 300));
            for (int seqId = 2; seqId <= CALLS; seqId++) {
                requests.write(RawFrames.addRequest(seqId, seqId, 1000));
            }
            OutputStream out = socket.getOutputStream();
            out.write(requests.toByteArray());
            out.flush();

            List<Integer> seqIds = new ArrayList<>();
            List<Integer> sums = new ArrayList<>();
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                for (int i = 0; i < CALLS; i++) {
                    RawFrames.Reply reply = RawFrames.readBinaryReply(socket);
                    Calculator.add_result result = new Calculator.add_result();
                    result.read(reply.result());
                    seqIds.add(reply.seqId());
                    sums.add(result.getSuccess());
                }
            });

            List<Integer> expectedSeqIds = new ArrayList<>();
            List<Integer> expectedSums = new ArrayList<>();
            expectedSums.add(0);
            for (int seqId = 1; seqId <= CALLS; seqId++) {
                expectedSeqIds.add(seqId);
                if (seqId > 1) {
                    expectedSums.add(seqId + 1000);
                }
            }
            assertThat(seqIds).isEqualTo(expectedSeqIds);
            assertThat(sums).isEqualTo(expectedSums);
        }
    }
}
