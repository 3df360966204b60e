package dev.grizzlyboot.memcached.zookeeper;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The znode paths of one cluster, and the parsing of their {@code key=value} contents:
 *
 * <pre>
 * {root}/{cluster}/servers                 latest proposal (list + version), written with a version check
 * {root}/{cluster}/committed               last committed list + version
 * {root}/{cluster}/members/{memberId}      ephemeral: who must acknowledge
 * {root}/{cluster}/barriers/{v}/acks/{id}  ephemeral: "I have list v ready"
 * {root}/{cluster}/barriers/{v}/decision   created once: commit at T, or abort
 * </pre>
 *
 * Immutable.
 */
record Znodes(String cluster) {

    static Znodes of(String root, String clusterName) {
        return new Znodes(root + "/" + clusterName);
    }

    String servers() {
        return cluster + "/servers";
    }

    String committed() {
        return cluster + "/committed";
    }

    String members() {
        return cluster + "/members";
    }

    String member(String memberId) {
        return members() + "/" + memberId;
    }

    String barriers() {
        return cluster + "/barriers";
    }

    String barrier(long version) {
        return barriers() + "/" + version;
    }

    String acks(long version) {
        return barrier(version) + "/acks";
    }

    String ack(long version, String memberId) {
        return acks(version) + "/" + memberId;
    }

    String decision(long version) {
        return barrier(version) + "/decision";
    }

    static Properties fields(byte[] data) {
        Properties fields = new Properties();
        try {
            fields.load(new StringReader(new String(data, StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("unreadable znode content", e);
        }
        return fields;
    }

    static long longField(Properties fields, String name) {
        String value = fields.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("znode content lacks '" + name + "'");
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("znode field '" + name + "' is not a number: " + value, e);
        }
    }
}
