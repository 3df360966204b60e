package dev.grizzlyboot.benchmarks.memcached;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The least a one-thread get or set can cost: a blocking socket, the binary protocol written by
 * hand, the calling thread writing the request and reading the answer itself (no I/O thread, no
 * pool, no futures, no transcoder). Not a client anyone should use; the benchmark's one-thread rows
 * are compared with it to show how much of a call is the loopback round trip and memcached.
 * One caller thread at a time; bulk calls are loops of single calls (enough to populate a key space).
 */
final class RoundTripFloor implements BenchClient {

    static final String LABEL = "round-trip floor (blocking socket)";

    private static final int HEADER = 24;
    private static final byte GET = 0x00;
    private static final byte SET = 0x01;
    private static final byte DELETE = 0x04;

    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    private final byte[] header = new byte[HEADER];
    private int opaque;

    RoundTripFloor(String hostAndPort) throws IOException {
        int colon = hostAndPort.lastIndexOf(':');
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(hostAndPort.substring(0, colon),
                Integer.parseInt(hostAndPort.substring(colon + 1))));
        out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 64 * 1024));
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
    }

    @Override
    public String label() {
        return LABEL;
    }

    @Override
    public byte[] get(String key) throws IOException {
        request(GET, key, 0, null);
        return answer(GET, true);
    }

    @Override
    public void set(String key, byte[] value) throws IOException {
        request(SET, key, 8, value);
        answer(SET, false);
    }

    @Override
    public void delete(String key) throws IOException {
        request(DELETE, key, 0, null);
        answer(DELETE, false);
    }

    @Override
    public int getMulti(List<String> keys) throws IOException {
        int hits = 0;
        for (String key : keys) {
            hits += get(key) == null ? 0 : 1;
        }
        return hits;
    }

    @Override
    public void setMulti(Map<String, byte[]> values) throws IOException {
        for (Map.Entry<String, byte[]> entry : values.entrySet()) {
            set(entry.getKey(), entry.getValue());
        }
    }

    @Override
    public void deleteMulti(List<String> keys) throws IOException {
        for (String key : keys) {
            delete(key);
        }
    }

    @Override
    public String bulkWriteNote() {
        return "no bulk write: one blocking set/delete at a time";
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private void request(byte opcode, String key, int extras, byte[] value) throws IOException {
        byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        int valueLength = value == null ? 0 : value.length;
        out.writeByte(0x80);
        out.writeByte(opcode);
        out.writeShort(keyBytes.length);
        out.writeByte(extras);
        out.writeByte(0);
        out.writeShort(0);
        out.writeInt(extras + keyBytes.length + valueLength);
        out.writeInt(++opaque);
        out.writeLong(0);
        if (extras == 8) {
            out.writeInt(0);
            out.writeInt(Expiry.TTL_SECONDS);
        }
        out.write(keyBytes);
        if (value != null) {
            out.write(value);
        }
        out.flush();
    }

    /**
     * Reads one answer, checks it is this request's, and returns its value (for a get) or null on a
     * miss. A value is read straight into the array returned; everything else is skipped.
     */
    private byte[] answer(byte opcode, boolean wantValue) throws IOException {
        in.readFully(header);
        int keyLength = ((header[2] & 0xff) << 8) | (header[3] & 0xff);
        int extras = header[4] & 0xff;
        int status = ((header[6] & 0xff) << 8) | (header[7] & 0xff);
        int body = ((header[8] & 0xff) << 24) | ((header[9] & 0xff) << 16) | ((header[10] & 0xff) << 8) | (header[11] & 0xff);
        int answerOpaque = ((header[12] & 0xff) << 24) | ((header[13] & 0xff) << 16) | ((header[14] & 0xff) << 8)
                | (header[15] & 0xff);
        if ((header[0] & 0xff) != 0x81 || header[1] != opcode || answerOpaque != opaque) {
            throw new IOException("answer does not match the request (opcode " + header[1] + ", opaque " + answerOpaque + ")");
        }
        if (status == 0 && wantValue) {
            in.skipNBytes(extras + keyLength);
            byte[] value = new byte[body - extras - keyLength];
            in.readFully(value);
            return value;
        }
        in.skipNBytes(body);
        if (status != 0 && !(status == 1 && opcode == GET)) {
            throw new IOException("memcached status " + status);
        }
        return null;
    }
}
