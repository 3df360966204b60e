package dev.grizzlyboot.autoconfigure.zookeeper;

import java.time.Duration;

import dev.grizzlyboot.autoconfigure.internal.PropertyBounds;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the ZooKeeper-coordinated server list, bound from {@code grizzly.memcached.zookeeper.*}.
 * Without a connect string there is no sync. A mutable bean filled in by Spring's binder at
 * start-up; not meant to change afterwards.
 */
@ConfigurationProperties("grizzly.memcached.zookeeper")
public class GrizzlyMemcachedZooKeeperProperties {

    /**
     * ZooKeeper servers as host:port[,host:port...]. Setting it switches the sync on; when the
     * application defines a CuratorFramework bean, that client's connection is used instead.
     */
    private String connectString;

    /** Parent znode of every cluster. */
    private String root = "/grizzly-memcached";

    /** The cluster's name: every application sharing it switches server lists together. */
    private String cluster = "default";

    /**
     * This member's id, unique among the cluster's live members. Default:
     * spring.application.name, host and process id (plus a sequence number from the second
     * application context of the same JVM on).
     */
    private String memberId;

    /**
     * Time from the commit decision to the moment every member switches; must cover the slowest
     * member's notification and the clock differences between members.
     */
    private Duration commitDelay = Duration.ofSeconds(5);

    /** How long after a proposal every live member must have acknowledged it before it is aborted. */
    private Duration prepareTimeout = Duration.ofSeconds(30);

    /** ZooKeeper session timeout; shorter than the prepare timeout. */
    private Duration sessionTimeout = Duration.ofSeconds(10);

    /**
     * How long start-up waits to connect and adopt the committed list; when ZooKeeper is not
     * reachable by then, the application starts on grizzly.memcached.servers and joins later.
     */
    private Duration connectionTimeout = Duration.ofSeconds(5);

    private final Auth auth = new Auth();

    public String getConnectString() {
        return connectString;
    }

    public void setConnectString(String connectString) {
        this.connectString = connectString;
    }

    public String getRoot() {
        return root;
    }

    public void setRoot(String root) {
        this.root = root;
    }

    public String getCluster() {
        return cluster;
    }

    public void setCluster(String cluster) {
        this.cluster = cluster;
    }

    public String getMemberId() {
        return memberId;
    }

    public void setMemberId(String memberId) {
        this.memberId = memberId;
    }

    public Duration getCommitDelay() {
        return commitDelay;
    }

    public void setCommitDelay(Duration commitDelay) {
        this.commitDelay = commitDelay;
    }

    public Duration getPrepareTimeout() {
        return prepareTimeout;
    }

    public void setPrepareTimeout(Duration prepareTimeout) {
        this.prepareTimeout = prepareTimeout;
    }

    public Duration getSessionTimeout() {
        return sessionTimeout;
    }

    public void setSessionTimeout(Duration sessionTimeout) {
        PropertyBounds.fitsIntMillis(sessionTimeout);
        this.sessionTimeout = sessionTimeout;
    }

    public Duration getConnectionTimeout() {
        return connectionTimeout;
    }

    public void setConnectionTimeout(Duration connectionTimeout) {
        PropertyBounds.fitsIntMillis(connectionTimeout);
        this.connectionTimeout = connectionTimeout;
    }

    public Auth getAuth() {
        return auth;
    }

    /** ZooKeeper authentication of the client this starter creates. */
    public static class Auth {

        /** Authentication scheme; with credentials set, the nodes the sync creates are readable and writable by the same identity only. */
        private String scheme = "digest";

        /** Credentials for the scheme, such as user:password for digest. Unset: no authentication, open ACL. */
        private String credentials;

        public String getScheme() {
            return scheme;
        }

        public void setScheme(String scheme) {
            this.scheme = scheme;
        }

        public String getCredentials() {
            return credentials;
        }

        public void setCredentials(String credentials) {
            this.credentials = credentials;
        }
    }
}
