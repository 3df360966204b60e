package dev.grizzlyboot.memcached.internal.cluster;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import dev.grizzlyboot.memcached.cluster.KetamaNaming;
import dev.grizzlyboot.memcached.cluster.ServerAddress;

/**
 * Ketama consistent hashing: each server owns points on a ring of 32-bit hashes (MD5 of its
 * name and a counter, four points per digest); a key belongs to the first point at or after its
 * own hash. The naming picks whose layout is built, so the same server list sends a key to the
 * same server as that client: {@link KetamaNaming#HOST_PORT} is spymemcached's (exactly 160
 * points per server when weights are equal, its weighted formula otherwise),
 * {@link KetamaNaming#LIBMEMCACHED} is libmemcached's {@code ketama_weighted} (the weighted
 * formula always, which gives fewer than 160 points at some server counts). Immutable and
 * thread-safe.
 *
 * @param <S> what a point leads to (a server node, or just its name)
 */
public final class KetamaRing<S> {

    private static final int POINTS_PER_SERVER = 160;
    private static final ThreadLocal<KeyDigest> KEY_DIGEST = ThreadLocal.withInitial(KeyDigest::new);

    private final long[] points;
    private final Object[] owners;
    private final int servers;

    private KetamaRing(long[] points, Object[] owners, int servers) {
        this.points = points;
        this.owners = owners;
        this.servers = servers;
    }

    /**
     * Builds spymemcached's ring for servers of equal weight: 160 points each.
     *
     * @param names  each server's name on the ring
     * @param owners what each name leads to, index for index
     */
    public static <S> KetamaRing<S> of(List<String> names, List<S> owners) {
        return build(names, owners, Collections.nCopies(names.size(), 1), false);
    }

    /**
     * Builds the ring a naming's client would build for these servers.
     *
     * @param naming  whose names and point counts to use
     * @param servers the servers, in configuration order (on equal points the later one wins)
     * @param owners  what each server leads to, index for index
     * @param weights each server's weight (at least 1), index for index
     */
    public static <S> KetamaRing<S> of(KetamaNaming naming, List<ServerAddress> servers, List<S> owners,
            List<Integer> weights) {
        // spymemcached takes its weighted formula only when given weights; libmemcached's
        // ketama_weighted always does, and the float arithmetic gives 156 points each at 25 servers.
        boolean weightedFormula = naming == KetamaNaming.LIBMEMCACHED || weights.stream().distinct().count() > 1;
        return build(servers.stream().map(naming::name).toList(), owners, weights, weightedFormula);
    }

    private static <S> KetamaRing<S> build(List<String> names, List<S> owners, List<Integer> weights,
            boolean weightedFormula) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("a ring needs at least one server");
        }
        if (names.size() != owners.size() || names.size() != weights.size()) {
            throw new IllegalArgumentException("names, owners and weights differ in length");
        }
        long totalWeight = 0;
        for (int weight : weights) {
            if (weight < 1) {
                throw new IllegalArgumentException("server weights must be >= 1, got " + weights);
            }
            totalWeight += weight;
        }
        List<long[]> entries = new ArrayList<>(names.size() * POINTS_PER_SERVER);
        MessageDigest md5 = newMd5();
        for (int server = 0; server < names.size(); server++) {
            int repetitions = weightedFormula ? weightedPoints(weights.get(server), totalWeight, names.size()) : POINTS_PER_SERVER;
            for (int i = 0; i < repetitions / 4; i++) {
                byte[] digest = md5.digest((names.get(server) + "-" + i).getBytes(StandardCharsets.UTF_8));
                for (int h = 0; h < 4; h++) {
                    entries.add(new long[] {point(digest, h), server});
                }
            }
        }
        // Equal points: the server listed last wins, as in spymemcached, whose later put replaces the earlier.
        entries.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long[] points = new long[entries.size()];
        Object[] pointOwners = new Object[entries.size()];
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
        Set<Object> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        distinct.addAll(Arrays.asList(pointOwners).subList(0, size));
        return new KetamaRing<>(Arrays.copyOf(points, size), Arrays.copyOf(pointOwners, size), distinct.size());
    }

    /** spymemcached's and libmemcached's formula, float arithmetic included, so both round alike. */
    private static int weightedPoints(int weight, long totalWeight, int servers) {
        float share = (float) weight / (float) totalWeight;
        return (int) Math.floor(share * (float) POINTS_PER_SERVER / 4 * (float) servers + 0.0000000001) * 4;
    }

    /** The owner of a key, given as its UTF-8 bytes (which are what is hashed). */
    @SuppressWarnings("unchecked")
    public S locate(byte[] key) {
        if (servers == 1) {
            return (S) owners[0];
        }
        return (S) owners[indexOf(key)];
    }

    /**
     * The first {@code count} distinct owners met walking clockwise from a key's point (fewer
     * when the ring has fewer servers): the key's owner first, then where its replicas go.
     */
    @SuppressWarnings("unchecked")
    public List<S> locate(byte[] key, int count) {
        int wanted = Math.min(count, servers);
        List<S> found = new ArrayList<>(wanted);
        int index = servers == 1 ? 0 : indexOf(key);
        for (int step = 0; step < owners.length && found.size() < wanted; step++) {
            S owner = (S) owners[(index + step) % owners.length];
            if (!containsSame(found, owner)) {
                found.add(owner);
            }
        }
        return found;
    }

    /** How many distinct servers own points. */
    public int servers() {
        return servers;
    }

    private int indexOf(byte[] key) {
        long hash = KEY_DIGEST.get().point(key);
        int index = Arrays.binarySearch(points, hash);
        if (index < 0) {
            index = -index - 1;
            if (index == points.length) {
                index = 0;
            }
        }
        return index;
    }

    private static boolean containsSame(List<?> list, Object candidate) {
        for (Object element : list) {
            if (element == candidate) {
                return true;
            }
        }
        return false;
    }

    private static long point(byte[] digest, int h) {
        return ((long) (digest[3 + h * 4] & 0xFF) << 24)
                | ((long) (digest[2 + h * 4] & 0xFF) << 16)
                | ((long) (digest[1 + h * 4] & 0xFF) << 8)
                | (digest[h * 4] & 0xFF);
    }

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has MD5", e);
        }
    }

    /**
     * One thread's MD5 and the array it digests into, so that hashing a key allocates nothing.
     * Package-private for the benchmark that measures the hash apart from the ring's search.
     */
    static final class KeyDigest {

        private final MessageDigest md5 = newMd5();
        private final byte[] digest = new byte[16];

        long point(byte[] key) {
            md5.update(key);
            try {
                md5.digest(digest, 0, digest.length);
            } catch (DigestException e) {
                throw new IllegalStateException("16 bytes always hold an MD5", e);
            }
            return KetamaRing.point(digest, 0);
        }
    }
}
