package dev.grizzlyboot.benchmarks.memcached;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.spotify.folsom.MemcacheClient;
import com.spotify.folsom.MemcacheClientBuilder;
import com.spotify.folsom.MemcacheStatus;

/**
 * folsom 1.21.0, byte-array client, binary protocol, its defaults (one connection per server; with
 * several servers its Ketama client, the one it builds for more than one address) except the
 * outstanding-request limit, raised from 1,000 to 100,000 so that 200 callers looping 200 async
 * sets each are not rejected as overload. It has no bulk write: {@link #setMulti} issues one async
 * set per key, then waits for all. The text-protocol variant ({@code folsom-text}; with
 * {@code --clients=all} in the getMulti cells only) is the same client built with
 * {@code connectAscii()}, whose bulk get is one {@code get k1 k2 ...} per server.
 */
final class FolsomBench implements BenchClient {

    private final MemcacheClient<byte[]> client;
    private final String label;

    FolsomBench(ClientTarget target) throws Exception {
        this(target, false);
    }

    FolsomBench(ClientTarget target, boolean text) throws Exception {
        label = text ? "folsom text" : "folsom";
        MemcacheClientBuilder<byte[]> builder = MemcacheClientBuilder.newByteArrayClient()
                .withMaxOutstandingRequests(100_000);
        for (String server : target.servers()) {
            String[] hostPort = server.split(":");
            builder.withAddress(hostPort[0], Integer.parseInt(hostPort[1]));
        }
        target.operationTimeout().ifPresent(timeout -> builder.withRequestTimeoutMillis(timeout.toMillis()));
        client = text ? builder.connectAscii() : builder.connectBinary();
        client.awaitConnected(10, TimeUnit.SECONDS);
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public byte[] get(String key) {
        return client.get(key).toCompletableFuture().join();
    }

    @Override
    public void set(String key, byte[] value) {
        require(client.set(key, value, Expiry.TTL_SECONDS).toCompletableFuture().join(), key);
    }

    @Override
    public void delete(String key) {
        client.delete(key).toCompletableFuture().join();
    }

    @Override
    public int getMulti(List<String> keys) {
        int hits = 0;
        for (byte[] value : client.get(keys).toCompletableFuture().join()) {
            if (value != null) {
                hits++;
            }
        }
        return hits;
    }

    @Override
    public void setMulti(Map<String, byte[]> values) {
        List<CompletableFuture<MemcacheStatus>> pending = new ArrayList<>(values.size());
        values.forEach((key, value) -> pending.add(client.set(key, value, Expiry.TTL_SECONDS).toCompletableFuture()));
        for (CompletableFuture<MemcacheStatus> future : pending) {
            require(future.join(), "a key");
        }
    }

    @Override
    public void deleteMulti(List<String> keys) {
        List<CompletableFuture<MemcacheStatus>> pending = new ArrayList<>(keys.size());
        for (String key : keys) {
            pending.add(client.delete(key).toCompletableFuture());
        }
        pending.forEach(CompletableFuture::join);
    }

    @Override
    public String bulkWriteNote() {
        return "no bulk write: one async set/delete per key, then wait for all";
    }

    @Override
    public void close() {
        client.shutdown();
    }

    private static void require(MemcacheStatus status, String key) {
        if (!Objects.equals(status, MemcacheStatus.OK)) {
            throw new IllegalStateException("folsom did not store " + key + ": " + status);
        }
    }
}
