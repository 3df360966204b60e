package dev.grizzlyboot.memcached.zookeeper;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The {@code key=value} lines of one znode. It keeps the node's path so that whatever is wrong
 * with the content, which a person or another tool may have written, is reported naming the node
 * and the field ({@link UnreadableZnodeException}) rather than as a bare parse error.
 */
final class ZnodeFields {

    private final String path;
    private final Properties fields;

    private ZnodeFields(String path, Properties fields) {
        this.path = path;
        this.fields = fields;
    }

    static ZnodeFields parse(String path, byte[] data) {
        Properties fields = new Properties();
        try {
            fields.load(new StringReader(new String(data, StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
            throw new UnreadableZnodeException(path, null, "not key=value lines (" + e.getMessage() + ")");
        }
        return new ZnodeFields(path, fields);
    }

    /** A required whole number of at least {@code min}. */
    long number(String name, long min) {
        String value = fields.getProperty(name);
        if (value == null) {
            throw new UnreadableZnodeException(path, name, "missing");
        }
        return parse(name, value, min);
    }

    /** An optional whole number of at least {@code min}, {@code absent} when the line is missing. */
    long number(String name, long min, long absent) {
        String value = fields.getProperty(name);
        return value == null ? absent : parse(name, value, min);
    }

    /** An optional text, trimmed; {@code absent} when the line is missing. */
    String text(String name, String absent) {
        String value = fields.getProperty(name);
        return value == null ? absent : value.trim();
    }

    /** A problem with a field that parsed, such as a value outside the ones the protocol knows. */
    UnreadableZnodeException bad(String name, String problem) {
        return new UnreadableZnodeException(path, name, problem);
    }

    private long parse(String name, String value, long min) {
        long number;
        try {
            number = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw bad(name, "not a whole number: '" + value + "'");
        }
        if (number < min) {
            throw bad(name, number + " is below " + min);
        }
        return number;
    }
}
