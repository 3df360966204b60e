package dev.grizzlyboot.memcached.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A memcached server as {@code host:port}. Its canonical text is exactly what the user wrote
 * (trimmed), never a resolved {@code InetSocketAddress.toString()}, so consistent hashing gives
 * the same answer on every machine. Immutable.
 *
 * @param host the host name or IP literal
 * @param port the TCP port
 */
public record ServerAddress(String host, int port) {

    /** memcached's default port. */
    public static final int DEFAULT_PORT = 11211;

    /**
     * Checks the parts; the host is kept as written.
     *
     * @param host the host name or IP literal, not blank
     * @param port the TCP port, 1 to 65535
     * @throws IllegalArgumentException if the host is blank or the port is not between 1 and 65535
     */
    public ServerAddress {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("server host is empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("server port out of range: " + port);
        }
    }

    /**
     * Parses {@code host:port}, {@code host} (port 11211) or {@code [ipv6]:port}.
     *
     * @param text the address as written in the configuration; surrounding spaces are ignored
     * @return the address
     * @throws IllegalArgumentException if the text is not a server address
     */
    public static ServerAddress parse(String text) {
        String value = text.trim();
        if (value.isEmpty()) {
            throw new IllegalArgumentException("empty server address");
        }
        if (value.startsWith("[")) {
            int end = value.indexOf(']');
            if (end < 0) {
                throw new IllegalArgumentException("unclosed '[' in server address '" + text + "'");
            }
            String host = value.substring(1, end);
            String rest = value.substring(end + 1);
            if (!rest.isEmpty() && rest.charAt(0) != ':') {
                throw new IllegalArgumentException("expected ':' and a port after ']' in server address '" + text + "'");
            }
            return new ServerAddress(host, rest.isEmpty() ? DEFAULT_PORT : port(rest.substring(1), text));
        }
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            return new ServerAddress(value, DEFAULT_PORT);
        }
        if (value.indexOf(':') != colon) {
            throw new IllegalArgumentException("write IPv6 server addresses as [address]:port, not '" + text + "'");
        }
        return new ServerAddress(value.substring(0, colon), port(value.substring(colon + 1), text));
    }

    /**
     * Parses a list of {@code host:port} strings, each of which may itself be a comma-separated
     * list; blank entries are skipped.
     *
     * @param texts the addresses as written in the configuration
     * @return the addresses, in the order written
     * @throws IllegalArgumentException if an entry is not a server address
     */
    public static List<ServerAddress> parseAll(List<String> texts) {
        List<ServerAddress> servers = new ArrayList<>();
        for (String text : texts) {
            for (String address : text.split(",")) {
                if (!address.isBlank()) {
                    servers.add(parse(address));
                }
            }
        }
        return servers;
    }

    /** {@code host:port} ({@code [host]:port} for IPv6 literals): the form hashing uses. */
    @Override
    public String toString() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }

    private static int port(String digits, String text) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad port in server address '" + text + "'", e);
        }
    }
}
