package dev.grizzlyboot.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MemcachedProcessTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(2);

    @Test
    void startsDistinctServersOnLoopback() {
        assertThat(memcached.addresses()).hasSize(2).allMatch(a -> a.startsWith("127.0.0.1:"));
        assertThat(memcached.get(0).port()).isNotEqualTo(memcached.get(1).port());
        assertThat(memcached.first().textCommand("version").get(0)).startsWith("VERSION 1.");
    }

    @Test
    void restartKeepsThePortAndLosesTheData() {
        MemcachedProcess server = memcached.first();
        int port = server.port();
        assertThat(server.textCommand("set k 0 0 1\r\nv")).containsExactly("STORED");
        server.kill();
        assertThat(server.isRunning()).isFalse();
        server.restart();
        assertThat(server.port()).isEqualTo(port);
        assertThat(server.textCommand("get k")).containsExactly("END");
    }

    /** A port another process took meanwhile: its listener must not pass for the memcached started there. */
    @Test
    void restartOnAPortAnotherProcessTookFailsInsteadOfTalkingToIt() throws Exception {
        try (MemcachedProcess server = MemcachedProcess.start()) {
            server.kill();
            try (ServerSocket other = new ServerSocket(server.port(), 50, InetAddress.getLoopbackAddress())) {
                Thread acceptor = new Thread(() -> {
                    while (!other.isClosed()) {
                        try (Socket connection = other.accept()) {
                            connection.getOutputStream().write("VERSION 1.6.0\r\n".getBytes(StandardCharsets.US_ASCII));
                        } catch (IOException closed) {
                            // The test is over.
                        }
                    }
                });
                acceptor.setDaemon(true);
                acceptor.start();
                assertThatThrownBy(server::restart).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("port " + server.port());
                assertThat(server.isRunning()).isFalse();
                other.close();
                acceptor.join(5_000);
            }
        }
    }

    @Test
    void pausedServerAcceptsButDoesNotAnswerUntilResumed() throws IOException {
        MemcachedProcess server = memcached.get(1);
        server.pause();
        try (Socket socket = new Socket()) {
            socket.connect(server.socketAddress(), 1_000);
            socket.setSoTimeout(300);
            socket.getOutputStream().write("version\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThatThrownBy(() -> socket.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            server.resume();
            socket.setSoTimeout(5_000);
            assertThat(socket.getInputStream().read()).isEqualTo('V');
        }
    }

    @Test
    void healRestartsKilledServers() {
        memcached.get(0).kill();
        memcached.servers().heal();
        assertThat(memcached.get(0).stats()).containsKey("pid");
    }

    @Test
    void anotherLoopbackAddressCanShareAServersPort() {
        MemcachedProcess first = memcached.first();
        try (MemcachedProcess second = MemcachedProcess.start(MemcachedOptions.defaults().withHost("127.0.0.2"), first.port())) {
            assertThat(second.address()).isEqualTo("127.0.0.2:" + first.port());
            assertThat(second.stats().get("pid")).isEqualTo(Long.toString(second.pid())).isNotEqualTo(first.stats().get("pid"));
        }
        assertThatThrownBy(() -> MemcachedOptions.defaults().withHost("192.168.1.1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("192.168.1.1");
    }

    /** {@code -B binary}: started and checked over the binary protocol; memcached closes a text connection. */
    @Test
    void binaryOnlyServerStartsAndRefusesText() throws IOException {
        try (MemcachedProcess binary = MemcachedProcess.start(MemcachedOptions.defaults().withBinaryOnly())) {
            assertThat(binary.stats().get("pid")).isEqualTo(Long.toString(binary.pid()));
            binary.flushAll();
            assertThatThrownBy(() -> binary.textCommand("version")).isInstanceOf(IllegalStateException.class);
            try (Socket socket = new Socket(binary.host(), binary.port())) {
                socket.setSoTimeout(5_000);
                // At least the 24 bytes of a binary header, so memcached reads a bad magic byte rather than waiting.
                socket.getOutputStream().write("get a-key-long-enough-for-a-header\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(socket.getInputStream().read()).isEqualTo(-1);
            }
        }
    }
}
