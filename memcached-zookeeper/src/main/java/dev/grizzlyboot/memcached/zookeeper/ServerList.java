package dev.grizzlyboot.memcached.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A versioned server list as stored in the {@code servers} and {@code committed} znodes: plain
 * {@code key=value} lines, so {@code zkCli get} shows it readably. Immutable.
 *
 * @param version        the list's number; each proposal takes the next one
 * @param servers        {@code host:port} strings, in list order
 * @param prepareByMillis until when (the proposer's wall clock plus its prepare timeout) every
 *                        live member must acknowledge; one deadline for all members
 * @param commitAtMillis  in {@code committed} only: the T at which members switched to the list,
 *                        so that a member adopting the record without having heard the decision
 *                        knows it too; 0 in a proposal, a seed, or a record from a member
 *                        built before records carried it
 */
record ServerList(long version, List<String> servers, long prepareByMillis, long commitAtMillis) {

    ServerList {
        servers = List.copyOf(servers);
    }

    /** A proposal or seed: no commit time yet. */
    ServerList(long version, List<String> servers, long prepareByMillis) {
        this(version, servers, prepareByMillis, 0);
    }

    /** This list as recorded in {@code committed}, switched to at {@code commitAt}. */
    ServerList committedAt(long commitAt) {
        return new ServerList(version, servers, prepareByMillis, commitAt);
    }

    byte[] encode() {
        return ("version=" + version + "\nservers=" + String.join(",", servers) + "\nprepare-by=" + prepareByMillis
                + "\n" + (commitAtMillis == 0 ? "" : "commit-at=" + commitAtMillis + "\n"))
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads a list from the content of the znode at {@code path}. Entries are trimmed, so a list
     * written by hand as {@code a:1, b:2} reads as {@code a:1,b:2}; whether each entry is a valid
     * address is for the memcached client to say when the list is used.
     *
     * @throws UnreadableZnodeException naming the node and the field if a field is missing or invalid
     */
    static ServerList decode(String path, byte[] data) {
        ZnodeFields fields = ZnodeFields.parse(path, data);
        List<String> servers = Arrays.stream(fields.text("servers", "").split(","))
                .map(String::trim).filter(server -> !server.isEmpty()).toList();
        return new ServerList(fields.number("version", 1), servers, fields.number("prepare-by", 0, 0),
                fields.number("commit-at", 0, 0));
    }
}
