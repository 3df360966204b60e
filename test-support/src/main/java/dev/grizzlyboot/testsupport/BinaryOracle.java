package dev.grizzlyboot.testsupport;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The test's own path to a memcached process that refuses the text protocol (it requires SASL,
 * or speaks binary only): a minimal blocking binary-protocol exchange (authenticate with PLAIN
 * if there is a user, then one command). Independent of the client under test on purpose. One instance per socket.
 */
final class BinaryOracle {

    private static final int MAGIC_REQUEST = 0x80;
    private static final int STAT = 0x10;
    private static final int FLUSH = 0x08;
    private static final int SASL_AUTH = 0x21;

    private final DataInputStream in;
    private final DataOutputStream out;

    /** @param user the SASL user to authenticate as, or {@code null} when the process requires none */
    BinaryOracle(Socket socket, MemcachedSasl user) throws IOException {
        this.in = new DataInputStream(socket.getInputStream());
        this.out = new DataOutputStream(socket.getOutputStream());
        if (user == null) {
            return;
        }
        byte[] credentials = ("\0" + user.username() + "\0" + user.password()).getBytes(StandardCharsets.UTF_8);
        Reply reply = call(SASL_AUTH, "PLAIN".getBytes(StandardCharsets.US_ASCII), credentials);
        if (reply.status != 0) {
            throw new IOException("SASL PLAIN as " + user.username() + " was refused with status " + reply.status);
        }
    }

    Map<String, String> stats() throws IOException {
        send(STAT, new byte[0], new byte[0]);
        Map<String, String> stats = new LinkedHashMap<>();
        while (true) {
            Reply reply = read();
            if (reply.key.isEmpty()) {
                return stats;
            }
            stats.put(reply.key, reply.value);
        }
    }

    void flushAll() throws IOException {
        Reply reply = call(FLUSH, new byte[0], new byte[0]);
        if (reply.status != 0) {
            throw new IOException("flush answered status " + reply.status);
        }
    }

    private Reply call(int opcode, byte[] key, byte[] value) throws IOException {
        send(opcode, key, value);
        return read();
    }

    private void send(int opcode, byte[] key, byte[] value) throws IOException {
        out.writeByte(MAGIC_REQUEST);
        out.writeByte(opcode);
        out.writeShort(key.length);
        out.writeByte(0);
        out.writeByte(0);
        out.writeShort(0);
        out.writeInt(key.length + value.length);
        out.writeInt(0);
        out.writeLong(0);
        out.write(key);
        out.write(value);
        out.flush();
    }

    private Reply read() throws IOException {
        byte[] header = new byte[24];
        in.readFully(header);
        int keyLength = ((header[2] & 0xFF) << 8) | (header[3] & 0xFF);
        int extrasLength = header[4] & 0xFF;
        int status = ((header[6] & 0xFF) << 8) | (header[7] & 0xFF);
        int bodyLength = ((header[8] & 0xFF) << 24) | ((header[9] & 0xFF) << 16) | ((header[10] & 0xFF) << 8) | (header[11] & 0xFF);
        byte[] body = new byte[bodyLength];
        in.readFully(body);
        String key = new String(body, extrasLength, keyLength, StandardCharsets.UTF_8);
        int valueStart = extrasLength + keyLength;
        String value = new String(body, valueStart, bodyLength - valueStart, StandardCharsets.UTF_8);
        return new Reply(status, key, value);
    }

    private record Reply(int status, String key, String value) {
    }
}
