package dev.grizzlyboot.benchmarks.memcached;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.rubyeye.xmemcached.command.BinaryCommandFactory;
import net.rubyeye.xmemcached.command.TextCommandFactory;
import net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator;
import net.rubyeye.xmemcached.transcoders.CachedData;
import net.rubyeye.xmemcached.transcoders.CompressionMode;
import net.rubyeye.xmemcached.transcoders.Transcoder;
import net.rubyeye.xmemcached.utils.AddrUtil;

/**
 * xmemcached 2.4.9 with the binary protocol and its other defaults (connection pool of one); with
 * several servers, its {@code KetamaMemcachedSessionLocator}.
 * Its API is blocking and has no bulk write; its nearest is the no-reply commands (quiet
 * opcodes): {@link #setMulti} sends every key but the last with {@code setWithNoReply} and the
 * last with an acknowledged {@code set}, which on the one connection answers after all the
 * others were processed. Errors of the no-reply commands are not reported. With several servers
 * only the last key's server is waited for (the 3-server scenario has no setMulti cell; its key
 * populating relies on each connection answering in order, so later gets see the values).
 * The text-protocol variant ({@code xmemcached-text}; with {@code --clients=all} in the getMulti cells
 * only) sends a bulk get as one {@code get k1 k2 ...} per server and merges queued single gets the
 * same way.
 */
final class XmemcachedBench implements BenchClient {

    private static final Transcoder<byte[]> BYTES = new RawBytes();

    private final MemcachedClient client;
    private final String label;

    XmemcachedBench(ClientTarget target) throws Exception {
        this(target, false);
    }

    XmemcachedBench(ClientTarget target, boolean text) throws Exception {
        label = text ? "xmemcached text" : "xmemcached";
        XMemcachedClientBuilder builder = new XMemcachedClientBuilder(
                AddrUtil.getAddresses(String.join(" ", target.servers())));
        builder.setCommandFactory(text ? new TextCommandFactory() : new BinaryCommandFactory());
        if (target.ketama()) {
            builder.setSessionLocator(new KetamaMemcachedSessionLocator());
        }
        target.operationTimeout().ifPresent(timeout -> builder.setOpTimeout(timeout.toMillis()));
        client = builder.build();
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public byte[] get(String key) throws Exception {
        return client.get(key, BYTES);
    }

    @Override
    public void set(String key, byte[] value) throws Exception {
        if (!client.set(key, Expiry.TTL_SECONDS, value, BYTES)) {
            throw new IllegalStateException("xmemcached did not store " + key);
        }
    }

    @Override
    public void delete(String key) throws Exception {
        client.delete(key);
    }

    @Override
    public int getMulti(List<String> keys) throws Exception {
        return client.get(keys, BYTES).size();
    }

    @Override
    public void setMulti(Map<String, byte[]> values) throws Exception {
        Iterator<Map.Entry<String, byte[]>> entries = values.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<String, byte[]> entry = entries.next();
            if (entries.hasNext()) {
                client.setWithNoReply(entry.getKey(), Expiry.TTL_SECONDS, entry.getValue(), BYTES);
            } else {
                set(entry.getKey(), entry.getValue());
            }
        }
    }

    @Override
    public void deleteMulti(List<String> keys) throws Exception {
        for (int i = 0; i < keys.size() - 1; i++) {
            client.deleteWithNoReply(keys.get(i));
        }
        client.delete(keys.get(keys.size() - 1));
    }

    @Override
    public String bulkWriteNote() {
        return "no bulk write: setWithNoReply/deleteWithNoReply per key, last key acknowledged";
    }

    @Override
    public void close() throws Exception {
        client.shutdown();
    }

    /** Stores {@code byte[]} as is, with flags 0; never compresses. */
    private static final class RawBytes implements Transcoder<byte[]> {

        @Override
        public CachedData encode(byte[] value) {
            return new CachedData(0, value);
        }

        @Override
        public byte[] decode(CachedData data) {
            return data.getData();
        }

        @Override
        public void setPrimitiveAsString(boolean primitiveAsString) {
        }

        @Override
        public void setPackZeros(boolean packZeros) {
        }

        @Override
        public void setCompressionThreshold(int threshold) {
        }

        @Override
        public boolean isPrimitiveAsString() {
            return false;
        }

        @Override
        public boolean isPackZeros() {
            return false;
        }

        @Override
        public void setCompressionMode(CompressionMode mode) {
        }
    }
}
