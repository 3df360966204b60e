package dev.grizzlyboot.memcached.transcoder;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import dev.grizzlyboot.memcached.TranscoderException;

/**
 * The client's default transcoder. Strings are UTF-8 with flags 0 (readable by any client); boxed
 * primitives are decimal text with a type code in the flags; {@code byte[]} is stored as it is;
 * anything else {@link Serializable} uses Java serialization, and reading it back passes an
 * {@link ObjectInputFilter} allow-list. Values larger than the compression threshold are gzipped
 * when that makes them smaller. A compressed item is inflated only up to
 * {@linkplain Builder#maxUncompressedSize(int) a limit} (32 MiB by default), so that an item of a
 * megabyte cannot make every reader allocate gigabytes; values larger than that are stored
 * uncompressed, so that what this transcoder writes it can read. Immutable and thread-safe.
 *
 * <p>The flags are those of spymemcached's and xmemcached's default transcoders (serialized,
 * gzipped, {@code byte[]}), except that numbers are text under codes of their own, which those
 * clients read as strings. Values those clients stored, their binary numbers, booleans and dates
 * included, are read as what they were; text Python's clients stored is read as a string. Flags
 * that mean something else to another client (a pickle, zlib) are a {@link TranscoderException}.
 *
 * <p>The allow-list always admits {@code java.lang}, {@code java.util}, {@code java.time} and
 * {@code java.math}, without their sub-packages ({@code java.util.concurrent} needs
 * {@code allow("java.util.concurrent.**")}); add your own classes with {@link Builder#allow(String...)}, in
 * {@link ObjectInputFilter.Config#createFilter} pattern syntax ({@code com.example.**}).
 * Serialized classes are resolved through {@link Builder#classLoader(ClassLoader)} when one is
 * given (an application whose classes a restart loader reloads, as Spring Boot DevTools does),
 * else as {@link ObjectInputStream} resolves them.
 */
public final class DefaultTranscoder implements Transcoder<Object> {

    /** The flag bit of a value stored as Java serialization, as spymemcached and xmemcached mark it too. */
    public static final int SERIALIZED = 1;
    static final int COMPRESSED = 1 << 1;
    private static final int BYTES = SpymemcachedValueType.BYTES.flags();
    /**
     * The bits Python's clients (pylibmc, pymemcache) set on values that are UTF-8 text: 16 on a
     * {@code str}, 4 on pylibmc's decimal {@code int}. Read as strings.
     */
    private static final int PYTHON_TEXT = 1 << 2 | 1 << 4;
    private static final int KNOWN_FLAGS = SERIALIZED | COMPRESSED | SpymemcachedValueType.MASK | TextValueType.MASK
            | PYTHON_TEXT;

    /** The threshold above which values are compressed unless configured otherwise: 16 KiB. */
    public static final int DEFAULT_COMPRESSION_THRESHOLD = 16 * 1024;

    /** The largest value a compressed item is inflated to unless configured otherwise: 32 MiB. */
    public static final int DEFAULT_MAX_UNCOMPRESSED_SIZE = 32 * 1024 * 1024;

    private static final List<String> ALWAYS_ALLOWED = List.of("java.lang.*", "java.util.*", "java.time.*", "java.math.*");

    private final int compressionThreshold;
    private final int maxUncompressedSize;
    private final ObjectInputFilter filter;
    private final List<String> allowed;
    private final ClassLoader classLoader;

    private DefaultTranscoder(int compressionThreshold, int maxUncompressedSize, List<String> allowed, ClassLoader classLoader) {
        this.compressionThreshold = compressionThreshold;
        this.maxUncompressedSize = maxUncompressedSize;
        this.allowed = List.copyOf(allowed);
        this.classLoader = classLoader;
        this.filter = ObjectInputFilter.Config.createFilter(String.join(";", allowed) + ";!*");
    }

    /**
     * A transcoder with the default threshold and only the JDK's value classes allowed.
     *
     * @return a new transcoder with the default settings
     */
    public static DefaultTranscoder create() {
        return builder().build();
    }

    /**
     * A builder for a transcoder with other settings.
     *
     * @return a new builder with the default settings
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public CachedData encode(Object value) {
        if (value == null) {
            throw new TranscoderException("memcached cannot store null");
        }
        int flags;
        byte[] bytes;
        TextValueType type;
        byte[] text;
        if (value instanceof byte[] raw) {
            flags = BYTES;
            bytes = raw;
        } else if ((type = TextValueType.ofValue(value)) != null
                // Text without a UTF-8 form (an unpaired surrogate) is serialized, so it reads back as given.
                && (text = Utf8.encode(value.toString())) != null) {
            flags = type.flags();
            bytes = text;
        } else if (value instanceof Serializable) {
            flags = SERIALIZED;
            bytes = serialize(value);
        } else {
            throw new TranscoderException(value.getClass().getName() + " is neither a String, a primitive, byte[] nor Serializable");
        }
        // Over the inflating limit, a value stays as it is: compressed, it could not be read back.
        if (bytes.length > compressionThreshold && bytes.length <= maxUncompressedSize) {
            byte[] compressed = gzip(bytes);
            if (compressed.length < bytes.length) {
                return new CachedData(flags | COMPRESSED, compressed);
            }
        }
        return new CachedData(flags, bytes);
    }

    @Override
    public Object decode(CachedData data) {
        int flags = data.flags();
        // The two most common items first: a get's bytes and a string.
        if (flags == BYTES) {
            return data.bytes();
        }
        if (flags == 0) {
            return Utf8.decode(data.bytes());
        }
        if ((flags & ~KNOWN_FLAGS) != 0) {
            // Such as the zlib bit of Python's clients: reading those bytes as text would give garbage.
            throw unknownFlags(flags);
        }
        if ((flags & PYTHON_TEXT) != 0) {
            if ((flags & ~PYTHON_TEXT) != 0) {
                throw unknownFlags(flags);
            }
            return Utf8.decode(data.bytes());
        }
        byte[] bytes = (flags & COMPRESSED) != 0 ? Gunzip.inflate(data.bytes(), maxUncompressedSize) : data.bytes();
        if ((flags & SERIALIZED) != 0) {
            return deserialize(bytes);
        }
        if ((flags & SpymemcachedValueType.MASK) != 0) {
            SpymemcachedValueType type = SpymemcachedValueType.ofFlags(flags);
            if (type == null || (flags & TextValueType.MASK) != 0) {
                throw unknownFlags(flags);
            }
            try {
                return type.decode(bytes);
            } catch (RuntimeException e) {
                throw notValid("spymemcached-encoded " + type, e);
            }
        }
        TextValueType type = TextValueType.ofFlags(flags);
        if (type == null) {
            throw unknownFlags(flags);
        }
        try {
            return type.decode(bytes);
        } catch (RuntimeException e) {
            throw notValid(type + " as text", e);
        }
    }

    private static TranscoderException notValid(String what, RuntimeException cause) {
        return new TranscoderException("stored bytes are not a valid " + what + ": " + cause.getMessage(), cause);
    }

    private static TranscoderException unknownFlags(int flags) {
        return new TranscoderException("unknown flags 0x" + Integer.toHexString(flags)
                + " on a stored item; if another client stored it, read it with Transcoder.bytes()"
                + " (or Transcoder.string() if it is UTF-8 text)");
    }

    /**
     * The size above which values are compressed.
     *
     * @return the threshold in bytes
     */
    public int compressionThreshold() {
        return compressionThreshold;
    }

    /**
     * The largest value a compressed item is inflated to, and the largest value compressed.
     *
     * @return the limit in bytes
     */
    public int maxUncompressedSize() {
        return maxUncompressedSize;
    }

    /**
     * The allow-list patterns, including the JDK ones that are always there.
     *
     * @return an unmodifiable list of {@link java.io.ObjectInputFilter} patterns
     */
    public List<String> allowedClasses() {
        return allowed;
    }

    private static byte[] serialize(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new TranscoderException("could not serialize " + value.getClass().getName(), e);
        }
        return bytes.toByteArray();
    }

    private Object deserialize(byte[] bytes) {
        ByteArrayInputStream stream = new ByteArrayInputStream(bytes);
        try (ObjectInputStream in = new ClassLoaderObjectInputStream(stream, classLoader)) {
            in.setObjectInputFilter(filter);
            Object value = in.readObject();
            // memcached joins an append to the item: reading one object would drop what follows it unseen.
            if (stream.available() > 0) {
                throw new TranscoderException("a stored value has " + stream.available()
                        + " bytes after the serialized object (an append or prepend to a serialized item?)");
            }
            return value;
        } catch (InvalidClassException e) {
            throw new TranscoderException("deserialization rejected by the allow-list " + allowed
                    + " (add the class with DefaultTranscoder.builder().allow(...)): " + e.getMessage(), e);
        } catch (IOException | ClassNotFoundException e) {
            throw new TranscoderException("could not deserialize a stored value", e);
        }
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 2);
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * The class loader serialized classes are resolved with; {@code null} for Java serialization's own choice.
     *
     * @return the loader, or {@code null}
     */
    public ClassLoader classLoader() {
        return classLoader;
    }

    /** Resolves classes through a given loader first, so values of reloaded classes are read as the new classes. */
    private static final class ClassLoaderObjectInputStream extends ObjectInputStream {

        private final ClassLoader classLoader;

        ClassLoaderObjectInputStream(InputStream in, ClassLoader classLoader) throws IOException {
            super(in);
            this.classLoader = classLoader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass description) throws IOException, ClassNotFoundException {
            if (classLoader == null) {
                return super.resolveClass(description);
            }
            try {
                return Class.forName(description.getName(), false, classLoader);
            } catch (ClassNotFoundException e) {
                // Primitive types and classes the loader cannot see.
                return super.resolveClass(description);
            }
        }
    }

    /** Builds a {@link DefaultTranscoder}. Not thread-safe. */
    public static final class Builder {

        private int compressionThreshold = DEFAULT_COMPRESSION_THRESHOLD;
        private int maxUncompressedSize = DEFAULT_MAX_UNCOMPRESSED_SIZE;
        private final List<String> allowed = new ArrayList<>(ALWAYS_ALLOWED);
        private ClassLoader classLoader;

        private Builder() {
        }

        /**
         * The class loader that resolves the classes of deserialized values (default: none, so
         * Java serialization picks the loader of the nearest application frame on the stack). Give
         * the application's loader when it can be replaced at run time, as DevTools restarts do.
         *
         * @param classLoader the loader, or {@code null} for Java serialization's default
         * @return this builder
         */
        public Builder classLoader(ClassLoader classLoader) {
            this.classLoader = classLoader;
            return this;
        }

        /**
         * Values larger than this many bytes are compressed (default 16 KiB); {@link Integer#MAX_VALUE}
         * turns compression off.
         *
         * @param bytes the threshold (not negative)
         * @return this builder
         */
        public Builder compressionThreshold(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("compression threshold must be >= 0, was " + bytes);
            }
            this.compressionThreshold = bytes;
            return this;
        }

        /**
         * The largest value a compressed item is inflated to (default 32 MiB); a larger one fails
         * with a {@link TranscoderException} before it is all inflated, so that a small item (gzip
         * packs a gigabyte of zeros into a megabyte) cannot exhaust the memory of every client
         * that reads it. Values larger than this are stored uncompressed, so that everything this
         * transcoder stores it can also read.
         *
         * @param bytes the limit (at least 1)
         * @return this builder
         */
        public Builder maxUncompressedSize(int bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("max uncompressed size must be >= 1, was " + bytes);
            }
            this.maxUncompressedSize = bytes;
            return this;
        }

        /**
         * Adds allow-list patterns for deserialization, such as {@code com.example.model.*} or {@code com.example.**}.
         *
         * @param patterns {@link java.io.ObjectInputFilter} class patterns, without {@code ;} or {@code !}
         * @return this builder
         */
        public Builder allow(String... patterns) {
            for (String pattern : patterns) {
                if (pattern.isBlank() || pattern.contains(";") || pattern.startsWith("!")) {
                    throw new IllegalArgumentException("not an allow pattern: '" + pattern + "'");
                }
                allowed.add(pattern.trim());
            }
            return this;
        }

        /**
         * Builds the transcoder; the builder can go on to build others.
         *
         * @return a new transcoder with this builder's settings
         */
        public DefaultTranscoder build() {
            return new DefaultTranscoder(compressionThreshold, maxUncompressedSize, allowed, classLoader);
        }
    }
}
