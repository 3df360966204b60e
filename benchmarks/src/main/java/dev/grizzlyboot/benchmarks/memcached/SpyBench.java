package dev.grizzlyboot.benchmarks.memcached;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

import net.spy.memcached.AddrUtil;
import net.spy.memcached.CachedData;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.transcoders.Transcoder;

/**
 * spymemcached 2.12.3 with the binary protocol and its other defaults (one connection per server,
 * one I/O thread); with several servers, its Ketama locator ({@code KETAMA_HASH}). It has no bulk write: {@link #setMulti} issues one async set per key, then waits for all.
 * The text-protocol variant ({@code --clients=spymemcached-text}, never part of {@code all}) sends
 * {@code getBulk} as one {@code get k1 k2 ...} per server and merges queued single gets the same way.
 */
final class SpyBench implements BenchClient {

    private static final Transcoder<byte[]> BYTES = new RawBytes();

    private final MemcachedClient client;
    private final String label;

    SpyBench(ClientTarget target) throws Exception {
        this(target, false);
    }

    SpyBench(ClientTarget target, boolean text) throws Exception {
        label = text ? "spymemcached text" : "spymemcached";
        ConnectionFactoryBuilder factory = new ConnectionFactoryBuilder()
                .setProtocol(text ? ConnectionFactoryBuilder.Protocol.TEXT : ConnectionFactoryBuilder.Protocol.BINARY)
                .setDaemon(true);
        if (target.ketama()) {
            // What KetamaConnectionFactory sets: the consistent-hash locator with KETAMA_HASH.
            factory.setLocatorType(ConnectionFactoryBuilder.Locator.CONSISTENT)
                    .setHashAlg(DefaultHashAlgorithm.KETAMA_HASH);
        }
        target.operationTimeout().ifPresent(timeout -> factory.setOpTimeout(timeout.toMillis()));
        client = new MemcachedClient(factory.build(), AddrUtil.getAddresses(target.servers()));
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public byte[] get(String key) {
        return client.get(key, BYTES);
    }

    @Override
    public void set(String key, byte[] value) throws Exception {
        require(client.set(key, Expiry.TTL_SECONDS, value, BYTES).get(), key);
    }

    @Override
    public void delete(String key) throws Exception {
        client.delete(key).get();
    }

    @Override
    public int getMulti(List<String> keys) {
        return client.getBulk(keys, BYTES).size();
    }

    @Override
    public void setMulti(Map<String, byte[]> values) throws Exception {
        List<Future<Boolean>> pending = new ArrayList<>(values.size());
        values.forEach((key, value) -> pending.add(client.set(key, Expiry.TTL_SECONDS, value, BYTES)));
        for (Future<Boolean> future : pending) {
            require(future.get(), "a key");
        }
    }

    @Override
    public void deleteMulti(List<String> keys) throws Exception {
        List<Future<Boolean>> pending = new ArrayList<>(keys.size());
        for (String key : keys) {
            pending.add(client.delete(key));
        }
        for (Future<Boolean> future : pending) {
            future.get();
        }
    }

    @Override
    public String bulkWriteNote() {
        return "no bulk write: one async set/delete per key, then wait for all";
    }

    @Override
    public void close() {
        client.shutdown();
    }

    private static void require(Boolean stored, String key) {
        if (!Boolean.TRUE.equals(stored)) {
            throw new IllegalStateException("spymemcached did not store " + key);
        }
    }

    /** Stores {@code byte[]} as is, with flags 0. */
    private static final class RawBytes implements Transcoder<byte[]> {

        @Override
        public boolean asyncDecode(CachedData data) {
            return false;
        }

        @Override
        public CachedData encode(byte[] value) {
            return new CachedData(0, value, CachedData.MAX_SIZE);
        }

        @Override
        public byte[] decode(CachedData data) {
            return data.getData();
        }

        @Override
        public int getMaxSize() {
            return CachedData.MAX_SIZE;
        }
    }
}
