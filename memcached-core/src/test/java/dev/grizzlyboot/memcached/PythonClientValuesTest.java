package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.memcached.transcoder.Transcoder;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ProcessOutput;
import dev.grizzlyboot.testsupport.Python;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Values shared with Python's memcached clients, pylibmc (libmemcached) and pymemcache, over one
 * real server, both ways ({@code src/test/python/python_clients.py}). Their flags are a convention
 * of their own: what they store as text (a {@code str}, pylibmc's decimal {@code int}) must read
 * back here as that text, their plain bytes (flags 0) as those bytes (as text only when they are
 * UTF-8, a typed error otherwise), and what means something
 * else to them (a pickle, pymemcache's {@code int} on our gzip bit) must be a
 * {@link TranscoderException}, never another value. What we store they read as its bytes: a
 * string's UTF-8, a number's decimal text.
 */
class PythonClientValuesTest {

    private static final Path SCRIPT = Path.of("src/test/python/python_clients.py");
    private static final HexFormat HEX = HexFormat.of();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void valuesCrossBetweenOurClientAndPythonsClients() throws Exception {
        String prefix = "py-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        Map<String, byte[]> ours = new LinkedHashMap<>();
        try (MemcachedClient client = MemcachedClient.builder().servers(memcached.addresses()).build()) {
            // Below the compression threshold: our gzip bit is their integer bit.
            Random random = new Random(5);
            List<Object> values = new ArrayList<>(List.of("", "héllo", "日本語 🐻", 42, -7L, 2.5d, true, 'x', new byte[] {0, 1, (byte) 0xFF}));
            for (int size : new int[] {1, 100, 1_000, 4_000}) {
                values.add(JavaClientValuesTest.text(random, size));
                byte[] bytes = new byte[size];
                random.nextBytes(bytes);
                values.add(bytes);
            }
            for (int i = 0; i < values.size(); i++) {
                Object value = values.get(i);
                String key = prefix + "ours-" + i;
                client.set(key, value, Duration.ZERO).get(5, TimeUnit.SECONDS);
                ours.put(key, value instanceof byte[] bytes ? bytes : value.toString().getBytes(StandardCharsets.UTF_8));
            }

            List<String> printed = runPython(prefix, ours.keySet());

            int theirs = 0;
            int readBack = 0;
            for (String line : printed) {
                String[] fields = line.split(" ", -1);
                if (fields[0].equals("W")) {
                    theirs++;
                    assertWeRead(client, fields[1], Integer.parseInt(fields[2]), HEX.parseHex(fields[3]));
                } else {
                    readBack++;
                    assertThat(fields[3]).as("%s read %s", fields[2], fields[1]).isEqualTo(HEX.formatHex(ours.get(fields[1])));
                }
            }
            assertThat(theirs).as("items the Python clients stored").isEqualTo(2 * 31);
            assertThat(readBack).as("our items the Python clients read").isEqualTo(2 * ours.size());
        }
    }

    /** Flags 0: bytes; Python's text bits alone: that text; anything else of theirs: a typed error. */
    private static void assertWeRead(MemcachedClient client, String key, int flags, byte[] stored) throws Exception {
        if (flags == 0) {
            assertThat(client.get(key, Transcoder.bytes()).get(5, TimeUnit.SECONDS)).as(key).isEqualTo(stored);
            // Their bytes read as text only when they are UTF-8; any others are a typed error, not U+FFFD.
            CompletableFuture<Object> read = client.get(key);
            if (isUtf8(stored)) {
                assertThat(read.get(5, TimeUnit.SECONDS)).as(key).isEqualTo(new String(stored, StandardCharsets.UTF_8));
            } else {
                assertThatThrownBy(read::join).as(key).isInstanceOf(CompletionException.class)
                        .cause().isInstanceOf(TranscoderException.class);
            }
        } else if (flags == 16 || flags == 4) {
            assertThat(client.get(key).get(5, TimeUnit.SECONDS)).as(key + " flags " + flags)
                    .isEqualTo(new String(stored, StandardCharsets.UTF_8));
        } else {
            CompletableFuture<Object> read = client.get(key);
            assertThatThrownBy(read::join).as(key + " flags " + flags).isInstanceOf(CompletionException.class)
                    .cause().isInstanceOf(TranscoderException.class);
            // Still there, and readable as what it is.
            assertThat(client.get(key, Transcoder.bytes()).get(5, TimeUnit.SECONDS)).isEqualTo(stored);
        }
    }

    private static boolean isUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static List<String> runPython(String prefix, Iterable<String> ourKeys) throws Exception {
        String interpreter = Python.withModules("python3 with pylibmc and pymemcache is missing: install them with "
                + "'sudo apt-get install -y python3-pylibmc python3-pymemcache' (Debian/Ubuntu; .ci/run does) "
                + "or 'pip install pylibmc pymemcache' for the python3 on the PATH", "pylibmc", "pymemcache");
        Process python = new ProcessBuilder(interpreter, SCRIPT.toString(),
                String.valueOf(memcached.first().port()), prefix, "7").start();
        CompletableFuture<String> errors = ProcessOutput.readInBackground(python.getErrorStream());
        CompletableFuture<String> output = ProcessOutput.readInBackground(python.getInputStream());
        try (OutputStream in = python.getOutputStream()) {
            in.write(String.join("\n", ourKeys).getBytes(StandardCharsets.UTF_8));
        }
        assertThat(python.waitFor(2, TimeUnit.MINUTES)).as("python_clients.py ended").isTrue();
        assertThat(python.exitValue()).as("python_clients.py failed: %s", errors.get(10, TimeUnit.SECONDS)).isZero();
        return output.get(10, TimeUnit.SECONDS).lines().toList();
    }
}
