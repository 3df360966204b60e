package dev.grizzlyboot.memcached.zookeeper;

import java.time.Duration;

/**
 * The options of one {@link ZooKeeperServerListSync}, validated. Immutable.
 *
 * @param rootPath          the parent znode of every cluster
 * @param clusterName       the cluster's znode name under the root
 * @param memberId          this member's znode name; unique among the cluster's live members
 * @param commitDelay       time from the commit decision to the moment every member switches
 * @param prepareTimeout    how long after a proposal every live member must have acknowledged it
 * @param sessionTimeout    ZooKeeper session timeout of the client this sync creates
 * @param connectionTimeout how long to wait for a connection (and the first join) at start
 * @param preferRemoteList  whether to wait for a list in ZooKeeper instead of seeding it with the local one
 */
record SyncSettings(String rootPath, String clusterName, String memberId, Duration commitDelay,
        Duration prepareTimeout, Duration sessionTimeout, Duration connectionTimeout, boolean preferRemoteList) {

    SyncSettings {
        if (!rootPath.startsWith("/") || rootPath.endsWith("/") || rootPath.contains("//")) {
            throw new IllegalArgumentException("root path must start with '/' and not end with one: " + rootPath);
        }
        requireName("cluster name", clusterName);
        requireName("member id", memberId);
        requirePositive("commit delay", commitDelay, true);
        requirePositive("prepare timeout", prepareTimeout, false);
        requirePositive("session timeout", sessionTimeout, false);
        requirePositive("connection timeout", connectionTimeout, false);
    }

    private static void requireName(String what, String name) {
        if (name == null || name.isBlank() || name.contains("/") || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException(what + " must be a non-empty znode name without '/': " + name);
        }
    }

    /**
     * A timeout as Curator takes it, in int milliseconds; a longer one is refused rather than
     * wrapped around to a negative or tiny timeout.
     */
    static int intMillis(String what, Duration duration) {
        if (duration.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException(what + " must be at most " + Integer.MAX_VALUE + " ms: " + duration);
        }
        return (int) duration.toMillis();
    }

    private static void requirePositive(String what, Duration duration, boolean zeroAllowed) {
        if (duration == null || duration.isNegative() || (!zeroAllowed && duration.isZero())) {
            throw new IllegalArgumentException(what + " must be positive: " + duration);
        }
    }
}
