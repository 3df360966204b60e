package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Write combining: a caller writes its request itself only when nothing is in flight on the
 * connection; otherwise requests queue and leave together after the next batch of responses.
 * Bursts of concurrent callers that stop dead must never leave a request stranded in the queue.
 */
class WriteCombiningTest {

    private static final int REQUEST_LENGTH = 24 + 2;
    private static final int QUEUED = 9;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void requestsSentWhileOneIsUnansweredLeaveTogetherInOneWriteAfterItsAnswer() throws Exception {
        try (ScriptedConnection listener = ScriptedConnection.listen()) {
            try (MemcachedClient client = MemcachedClient.builder().servers(listener.address())
                    .connectionsPerServer(1, 1).operationTimeout(Duration.ofSeconds(10)).build();
                    Socket server = listener.accept()) {
                DataInputStream in = new DataInputStream(server.getInputStream());
                OutputStream out = server.getOutputStream();
                CompletableFuture<Object> first = client.get("k0");
                byte[] request = new byte[REQUEST_LENGTH];
                in.readFully(request);
                int firstOpaque = opaque(request, 0);

                List<CompletableFuture<Object>> queued = new ArrayList<>();
                for (int i = 1; i <= QUEUED; i++) {
                    queued.add(client.get("k" + i));
                }
                // With the old write path every one of these reached the socket at once; now they
                // wait for the answer (or, as a backstop, 100 ms of silence).
                server.setSoTimeout(50);
                assertThatThrownBy(() -> in.read(new byte[1])).isInstanceOf(SocketTimeoutException.class);

                out.write(FakeServer.header(0x01, firstOpaque, 0));
                out.flush();
                assertThat(first.get(10, TimeUnit.SECONDS)).isNull();

                server.setSoTimeout(10_000);
                byte[] batch = new byte[QUEUED * REQUEST_LENGTH + 1];
                int read = in.read(batch);
                assertThat(read).as("bytes of the queued requests in the first read").isEqualTo(QUEUED * REQUEST_LENGTH);
                for (int i = 0; i < QUEUED; i++) {
                    assertThat(opaque(batch, i * REQUEST_LENGTH)).isEqualTo(firstOpaque + 1 + i);
                    assertThat(new String(batch, i * REQUEST_LENGTH + 24, 2)).isEqualTo("k" + (i + 1));
                    out.write(FakeServer.header(0x01, opaque(batch, i * REQUEST_LENGTH), 0));
                }
                out.flush();
                for (CompletableFuture<Object> answer : queued) {
                    assertThat(answer.get(10, TimeUnit.SECONDS)).isNull();
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(IoStrategy.class)
    void burstsOfConcurrentCallersThatStopDeadLeaveNothingStranded(IoStrategy strategy) throws Exception {
        int threads = 16;
        int rounds = 60;
        int callsPerThread = 5;
        // A stranded request would sit until this timeout; each round must finish long before it.
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addressList())
                .connectionsPerServer(1, 1).ioStrategy(strategy).operationTimeout(Duration.ofSeconds(30)).build()) {
            BlockingMemcachedClient blocking = client.blocking();
            ExecutorService callers = Executors.newFixedThreadPool(threads);
            try {
                for (int round = 0; round < rounds; round++) {
                    CyclicBarrier start = new CyclicBarrier(threads);
                    List<Future<?>> calls = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        String key = strategy + "-" + round + "-" + t;
                        calls.add(callers.submit(() -> {
                            start.await();
                            for (int i = 0; i < callsPerThread; i++) {
                                blocking.set(key, key + "/" + i, Duration.ZERO);
                                assertThat(blocking.get(key)).isEqualTo(key + "/" + i);
                            }
                            return null;
                        }));
                    }
                    for (Future<?> call : calls) {
                        call.get(10, TimeUnit.SECONDS);
                    }
                }
            } finally {
                callers.shutdownNow();
            }
        }
    }

    private static int opaque(byte[] bytes, int offset) {
        return ((bytes[offset + 12] & 0xFF) << 24) | ((bytes[offset + 13] & 0xFF) << 16)
                | ((bytes[offset + 14] & 0xFF) << 8) | (bytes[offset + 15] & 0xFF);
    }
}
