package dev.grizzlyboot.memcached.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The outcome of one barrier, written once to its {@code decision} znode: commit at a wall-clock
 * time, or abort. Immutable.
 *
 * @param commit        whether the list is committed
 * @param commitAtMillis when every member switches (epoch millis, each by its own clock); 0 on abort
 * @param decidedBy     the member that created the node
 * @param reason        why, for people reading the znode
 */
record Decision(boolean commit, long commitAtMillis, String decidedBy, String reason) {

    static Decision commitAt(long commitAtMillis, String decidedBy) {
        return new Decision(true, commitAtMillis, decidedBy, "every live member acknowledged");
    }

    static Decision abort(String decidedBy, String reason) {
        return new Decision(false, 0, decidedBy, reason);
    }

    byte[] encode() {
        return ((commit ? "outcome=commit\ncommit-at=" + commitAtMillis : "outcome=abort") + "\ndecided-by=" + decidedBy
                + "\nreason=" + reason + "\n").getBytes(StandardCharsets.UTF_8);
    }

    static Decision decode(byte[] data) {
        Properties fields = Znodes.fields(data);
        boolean commit = "commit".equals(fields.getProperty("outcome"));
        return new Decision(commit, commit ? Znodes.longField(fields, "commit-at") : 0,
                fields.getProperty("decided-by", "?"), fields.getProperty("reason", ""));
    }
}
