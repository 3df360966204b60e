package dev.grizzlyboot.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SecureMemcachedProcessTest {

    @RegisterExtension
    static MemcachedExtension sasl = MemcachedExtension.servers(1, MemcachedOptions.defaults().withSasl("app", "s3cret"));

    @RegisterExtension
    static MemcachedExtension tls = MemcachedExtension.servers(1, MemcachedOptions.defaults().withTls(MemcachedTls.server()));

    @RegisterExtension
    static MemcachedExtension mutualTls = MemcachedExtension.servers(1, MemcachedOptions.defaults().withTls(MemcachedTls.mutual()));

    @Test
    void saslServerAnswersTheConfiguredUserOnly() throws IOException {
        assertThat(sasl.first().stats()).containsKey("pid");
        try (Socket socket = new Socket(sasl.first().host(), sasl.first().port())) {
            socket.setSoTimeout(5_000);
            assertThatThrownBy(() -> new BinaryOracle(socket, new MemcachedSasl("app", "wrong")))
                    .hasMessageContaining("refused with status 32");
        }
        assertThat(sasl.first().stats().get("auth_errors")).isNotEqualTo("0");
    }

    @Test
    void saslServerRefusesUnauthenticatedCommands() throws IOException {
        try (Socket socket = new Socket(sasl.first().host(), sasl.first().port())) {
            socket.setSoTimeout(5_000);
            // A binary GET of "k" without authenticating first.
            byte[] get = {(byte) 0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'k'};
            socket.getOutputStream().write(get);
            byte[] header = socket.getInputStream().readNBytes(24);
            assertThat(((header[6] & 0xFF) << 8) | (header[7] & 0xFF)).isEqualTo(0x20);
        }
    }

    @Test
    void tlsServerSpeaksTlsOnly() throws IOException {
        assertThat(tls.first().textCommand("version").get(0)).startsWith("VERSION 1.");
        try (Socket socket = new Socket(tls.first().host(), tls.first().port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("version\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readAll(socket.getInputStream())).doesNotContain("VERSION");
        }
    }

    @Test
    void mutualTlsServerRefusesAClientWithoutCertificate() throws IOException {
        assertThat(mutualTls.first().textCommand("version").get(0)).startsWith("VERSION 1.");
        try (SSLSocket socket = (SSLSocket) TestCertificates.clientContext().getSocketFactory()
                .createSocket(mutualTls.first().host(), mutualTls.first().port())) {
            socket.setSoTimeout(5_000);
            assertThatThrownBy(() -> {
                socket.getOutputStream().write("version\r\n".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                String answer = readAll(socket.getInputStream());
                if (!answer.contains("VERSION")) {
                    throw new IOException("no answer: '" + answer + "'");
                }
            }).isInstanceOf(IOException.class);
        }
    }

    private static String readAll(InputStream in) throws IOException {
        try {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }
}
