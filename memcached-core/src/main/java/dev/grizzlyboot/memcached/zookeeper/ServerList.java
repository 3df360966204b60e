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
 * @param proposedAtMillis the proposer's wall-clock time when it wrote the proposal (the prepare
 *                       deadline counts from it)
 */
record ServerList(long version, List<String> servers, long proposedAtMillis) {

    ServerList {
        servers = List.copyOf(servers);
    }

    byte[] encode() {
        return ("version=" + version + "\nservers=" + String.join(",", servers) + "\nproposed-at=" + proposedAtMillis
                + "\n").getBytes(StandardCharsets.UTF_8);
    }

    static ServerList decode(byte[] data) {
        Properties fields = Znodes.fields(data);
        String servers = fields.getProperty("servers", "");
        return new ServerList(Znodes.longField(fields, "version"),
                servers.isBlank() ? List.of() : Arrays.asList(servers.split(",")),
                Long.parseLong(fields.getProperty("proposed-at", "0")));
    }
}
