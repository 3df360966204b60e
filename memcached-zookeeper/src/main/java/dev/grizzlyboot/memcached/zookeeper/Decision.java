package dev.grizzlyboot.memcached.zookeeper;

import java.nio.charset.StandardCharsets;

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

    /**
     * Reads the decision from the content of the znode at {@code path}.
     *
     * @throws UnreadableZnodeException naming the node and the field if the outcome is neither
     *     {@code commit} nor {@code abort}, or a commit lacks a valid {@code commit-at}: members
     *     must not guess an outcome they would all be bound by
     */
    static Decision decode(String path, byte[] data) {
        ZnodeFields fields = ZnodeFields.parse(path, data);
        String outcome = fields.text("outcome", "");
        if (!outcome.equals("commit") && !outcome.equals("abort")) {
            throw fields.bad("outcome", "'" + outcome + "' is neither 'commit' nor 'abort'");
        }
        boolean commit = outcome.equals("commit");
        return new Decision(commit, commit ? fields.number("commit-at", 1) : 0, fields.text("decided-by", "?"),
                fields.text("reason", ""));
    }
}
