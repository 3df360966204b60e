package dev.grizzlyboot.memcached.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

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

    static ServerList decode(byte[] data) {
        Properties fields = Znodes.fields(data);
        String servers = fields.getProperty("servers", "");
        return new ServerList(Znodes.longField(fields, "version"),
                servers.isBlank() ? List.of() : Arrays.asList(servers.split(",")),
                Long.parseLong(fields.getProperty("prepare-by", "0")),
                Long.parseLong(fields.getProperty("commit-at", "0")));
    }
}
