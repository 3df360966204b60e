package dev.grizzlyboot.memcached.cluster;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;

/**
 * Ketama consistent hashing: each server owns 160 points on a ring of 32-bit hashes (MD5 of
 * {@code host:port-i}, four points per digest); a key belongs to the first point at or after its
 * own hash. This is the libmemcached / spymemcached KETAMA layout, so the same server list sends
 * a key to the same server in those clients. Immutable and thread-safe.
 *
 * @param <S> what a point leads to (a connection pool, or just the address)
 */
public final class KetamaRing<S> {

    private static final int POINTS_PER_SERVER = 160;

    private final long[] points;
    private final Object[] owners;

    private KetamaRing(long[] points, Object[] owners) {
        this.points = points;
        this.owners = owners;
    }

    /**
     * Builds the ring for servers named by their canonical {@code host:port}.
     *
     * @param names  each server's canonical name
     * @param owners what each name leads to, index for index
     */
    public static <S> KetamaRing<S> of(List<String> names, List<S> owners) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("a ring needs at least one server");
        }
        int total = names.size() * POINTS_PER_SERVER;
        long[][] entries = new long[total][2];
        int next = 0;
        for (int server = 0; server < names.size(); server++) {
            for (int i = 0; i < POINTS_PER_SERVER / 4; i++) {
                byte[] digest = md5(names.get(server) + "-" + i);
                for (int h = 0; h < 4; h++) {
                    entries[next][0] = point(digest, h);
                    entries[next][1] = server;
                    next++;
                }
            }
        }
        // Equal points: the server listed last wins, as in spymemcached, whose later put replaces the earlier.
        Arrays.sort(entries, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long[] points = new long[total];
        Object[] pointOwners = new Object[total];
        int size = 0;
        for (long[] entry : entries) {
            if (size > 0 && points[size - 1] == entry[0]) {
                pointOwners[size - 1] = owners.get((int) entry[1]);
                continue;
            }
            points[size] = entry[0];
            pointOwners[size] = owners.get((int) entry[1]);
            size++;
        }
        return new KetamaRing<>(Arrays.copyOf(points, size), Arrays.copyOf(pointOwners, size));
    }

    /** The owner of a key. */
    @SuppressWarnings("unchecked")
    public S locate(String key) {
        long hash = point(md5(key), 0);
        int index = Arrays.binarySearch(points, hash);
        if (index < 0) {
            index = -index - 1;
            if (index == points.length) {
                index = 0;
            }
        }
        return (S) owners[index];
    }

    private static long point(byte[] digest, int h) {
        return ((long) (digest[3 + h * 4] & 0xFF) << 24)
                | ((long) (digest[2 + h * 4] & 0xFF) << 16)
                | ((long) (digest[1 + h * 4] & 0xFF) << 8)
                | (digest[h * 4] & 0xFF);
    }

    private static byte[] md5(String text) {
        try {
            return MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has MD5", e);
        }
    }
}
