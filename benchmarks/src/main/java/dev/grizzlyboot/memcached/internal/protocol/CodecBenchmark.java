package dev.grizzlyboot.memcached.internal.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The wire codec: building and writing a GET and a SET (request, operation, bytes into an array,
 * as a connection's flush does) and decoding a GET hit (as {@link BinaryProtocolFilter} does,
 * from the array of the bytes read), and a text {@code get}'s answers for 33 keys (as
 * {@link TextProtocolFilter} decodes one read). In the protocol's package because the decoder is
 * package-private.
 * Run by {@code benchmarks/run-jmh.sh}, which sets the mode and iterations.
 */
@State(Scope.Thread)
public class CodecBenchmark {

    private static final ResponseHandler<byte[]> VALUE = (response, operation) -> response.value();
    private static final int TEXT_KEYS = 33;
    private static final byte[] CRLF = {'\r', '\n'};

    @Param({"32", "512"})
    public int valueSize;

    private final byte[] key = "grizzly-boot:123456".getBytes(StandardCharsets.UTF_8);
    private byte[] value;
    private final byte[] out = new byte[64 * 1024];
    private byte[] hit;
    private final TextProtocolFilter textFilter = new TextProtocolFilter(1024 * 1024);
    private byte[] textAnswer;

    @Setup
    public void setUp() {
        value = new byte[valueSize];
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        for (int i = 0; i < TEXT_KEYS; i++) {
            // The benchmark harness's keys: client prefix, value size, index.
            text.writeBytes(("VALUE c0:" + valueSize + ":" + (1000 + i * 37) + " 0 " + valueSize + "\r\n").getBytes(StandardCharsets.US_ASCII));
            text.writeBytes(value);
            text.writeBytes(CRLF);
        }
        text.writeBytes("END\r\n".getBytes(StandardCharsets.US_ASCII));
        textAnswer = text.toByteArray();
        hit = ByteBuffer.allocate(Request.HEADER_LENGTH + 4 + valueSize)
                .put((byte) 0x81).put(Opcode.GET.code()).putShort((short) 0).put((byte) 4).put((byte) 0).putShort((short) 0)
                .putInt(4 + valueSize).putInt(7).putLong(42).putInt(0).put(value).array();
    }

    @Benchmark
    public int encodeGet() {
        return new SingleOperation<>("get", "grizzly-boot:123456", Request.keyed(Opcode.GET, key), 1_000_000_000L, VALUE)
                .writeTo(out, 0, 7);
    }

    @Benchmark
    public int encodeSet() {
        return new SingleOperation<>("set", "grizzly-boot:123456", Request.store(Opcode.SET, key, 0, 3600, value, 0),
                1_000_000_000L, VALUE).writeTo(out, 0, 7);
    }

    @Benchmark
    public Response decodeGetHit() {
        return BinaryProtocolFilter.decode(hit, 0);
    }

    /** A text {@code get} of {@value #TEXT_KEYS} keys, all hits, as one read: every answer and END. */
    @Benchmark
    public int decodeTextGet() {
        TextProtocolFilter.Answers answers = textFilter.new Answers();
        answers.decode(textAnswer, 0, textAnswer.length);
        return answers.responses.size();
    }
}
