package dev.grizzlyboot.memcached.transcoder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.math.BigDecimal;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPOutputStream;

import dev.grizzlyboot.memcached.TranscoderException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefaultTranscoderTest {

    private final DefaultTranscoder transcoder = DefaultTranscoder.create();

    /**
     * A compressed item is inflated only up to the limit: one byte more is a typed error, not the
     * allocation of whatever the gzip stream unpacks to (64 MiB of zeros here, from 64 KiB).
     */
    @Test
    void compressedItemsInflateOnlyUpToTheLimit() throws IOException {
        DefaultTranscoder limited = DefaultTranscoder.builder().maxUncompressedSize(1_000).build();
        int bytesAndGzip = DefaultTranscoder.COMPRESSED | limited.encode(new byte[0]).flags();
        assertThat((byte[]) limited.decode(new CachedData(bytesAndGzip, gzipOfZeros(1_000)))).hasSize(1_000);
        assertThatThrownBy(() -> limited.decode(new CachedData(bytesAndGzip, gzipOfZeros(1_001))))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("inflates to more than 1000 bytes");

        byte[] bomb = gzipOfZeros(64 * 1024 * 1024);
        assertThat(bomb.length).isLessThan(70_000);
        assertThat(transcoder.maxUncompressedSize()).isEqualTo(DefaultTranscoder.DEFAULT_MAX_UNCOMPRESSED_SIZE);
        assertThatThrownBy(() -> transcoder.decode(new CachedData(bytesAndGzip, bomb)))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("more than " + 32 * 1024 * 1024 + " bytes");
    }

    /**
     * gzip headers may carry optional fields (extra data, a file name as Python's gzip writes one,
     * a comment, a header CRC): a member with all of them reads as its data, as the JDK's
     * GZIPInputStream reads it. A member cut short, or whose CRC does not match, is a typed error.
     */
    /**
     * Items gzipped by another implementation, the gzip tool, which names the file in its header
     * (FNAME, which the JDK's writer never sets): one member, and two members joined, read as the
     * tool's own {@code gzip -dc} reads them.
     */
    @Test
    void itemsTheGzipToolWroteReadAsItReadsThem(@TempDir Path directory) throws Exception {
        Path first = Files.writeString(directory.resolve("first.txt"), "grüße ".repeat(500));
        Path second = Files.writeString(directory.resolve("second.txt"), "from the gzip tool");
        byte[] one = run("gzip", "-c", "-N", first.toString());
        assertThat(one[3] & 8).as("the tool wrote the file name").isEqualTo(8);
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        joined.write(one);
        joined.write(run("gzip", "-c", "-N", second.toString()));
        Path joinedFile = Files.write(directory.resolve("joined.gz"), joined.toByteArray());

        assertThat(transcoder.decode(new CachedData(DefaultTranscoder.COMPRESSED, one))).isEqualTo(Files.readString(first));
        assertThat(transcoder.decode(new CachedData(DefaultTranscoder.COMPRESSED, joined.toByteArray())))
                .isEqualTo(new String(run("gzip", "-dc", joinedFile.toString()), StandardCharsets.UTF_8))
                .isEqualTo(Files.readString(first) + Files.readString(second));
    }

    private static byte[] run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor()).as(String.join(" ", command)).isZero();
        return output;
    }

    @Test
    void gzipMembersWithOptionalHeaderFieldsReadAndDamagedOnesAreTypedErrors() throws IOException {
        byte[] plain = gzipOf("grüße".getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream member = new ByteArrayOutputStream();
        member.write(plain, 0, 3);
        member.write(2 | 4 | 8 | 16);
        member.write(plain, 4, 6);
        member.write(new byte[] {3, 0, 'x', 'y', 'z'});
        member.write("name.txt\0comment\0".getBytes(StandardCharsets.US_ASCII));
        java.util.zip.CRC32 headerCrc = new java.util.zip.CRC32();
        headerCrc.update(member.toByteArray());
        member.write(new byte[] {(byte) headerCrc.getValue(), (byte) (headerCrc.getValue() >>> 8)});
        member.write(plain, 10, plain.length - 10);
        byte[] withFields = member.toByteArray();
        assertThat(new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(withFields)).readAllBytes())
                .isEqualTo("grüße".getBytes(StandardCharsets.UTF_8));
        assertThat(transcoder.decode(new CachedData(DefaultTranscoder.COMPRESSED, withFields))).isEqualTo("grüße");

        byte[] wrongHeaderCrc = withFields.clone();
        int headerCrcAt = 10 + 5 + "name.txt\0comment\0".length();
        wrongHeaderCrc[headerCrcAt] ^= 1;
        assertThatThrownBy(() -> transcoder.decode(new CachedData(DefaultTranscoder.COMPRESSED, wrongHeaderCrc)))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("header");

        byte[] cutShort = java.util.Arrays.copyOf(plain, plain.length - 4);
        assertThatThrownBy(() -> transcoder.decode(new CachedData(DefaultTranscoder.COMPRESSED, cutShort)))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("not valid gzip");
        byte[] wrongCrc = plain.clone();
        wrongCrc[plain.length - 8] ^= 1;
        assertThatThrownBy(() -> transcoder.decode(new CachedData(DefaultTranscoder.COMPRESSED, wrongCrc)))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("CRC32");
    }

    private static byte[] gzipOf(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(bytes);
        }
        return out.toByteArray();
    }

    /** What the transcoder stores it can read: a value over the inflating limit is stored uncompressed. */
    @Test
    void valuesOverTheLimitAreStoredUncompressed() {
        DefaultTranscoder limited = DefaultTranscoder.builder().compressionThreshold(100).maxUncompressedSize(1_000).build();
        CachedData atTheLimit = limited.encode(new byte[1_000]);
        assertThat(atTheLimit.flags() & DefaultTranscoder.COMPRESSED).isNotZero();
        assertThat((byte[]) limited.decode(atTheLimit)).isEqualTo(new byte[1_000]);
        CachedData overIt = limited.encode(new byte[1_001]);
        assertThat(overIt.flags() & DefaultTranscoder.COMPRESSED).isZero();
        assertThat(overIt.bytes()).hasSize(1_001);
        assertThat((byte[]) limited.decode(overIt)).isEqualTo(new byte[1_001]);
        assertThatThrownBy(() -> DefaultTranscoder.builder().maxUncompressedSize(0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A gzip stream of {@code count} zero bytes, written in pieces so that the zeros are never all in memory. */
    static byte[] gzipOfZeros(int count) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] zeros = new byte[64 * 1024];
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            for (int left = count; left > 0; left -= zeros.length) {
                gzip.write(zeros, 0, Math.min(left, zeros.length));
            }
        }
        return out.toByteArray();
    }

    @Test
    void primitivesRoundTripAsDecimalText() {
        for (Object value : List.of(42, 42L, (short) 7, (byte) 3, 1.5f, 2.25d, true, 'x', "text")) {
            CachedData data = transcoder.encode(value);
            assertThat(new String(data.bytes(), StandardCharsets.UTF_8)).isEqualTo(value.toString());
            assertThat(transcoder.decode(data)).isEqualTo(value);
            // Bits 8–15 are spymemcached's and xmemcached's binary types: theirs would misread the text.
            assertThat(data.flags() & 0xFF00).isZero();
        }
        assertThat(transcoder.encode("text").flags()).isZero();
    }

    /** Every float and double form Java writes reads back, over generated bit patterns and the special values. */
    @Test
    void everyFloatAndDoubleRoundTrips() {
        java.util.Random random = new java.util.Random(7);
        List<Object> values = new java.util.ArrayList<>(List.of(Float.NaN, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY,
                -0.0f, Float.MIN_VALUE, Float.MAX_VALUE, Double.NaN, -0.0d, Double.MIN_VALUE, Double.MAX_VALUE, 1e-300, 1e300));
        for (int i = 0; i < 10_000; i++) {
            values.add(Float.intBitsToFloat(random.nextInt()));
            values.add(Double.longBitsToDouble(random.nextLong()));
        }
        for (Object value : values) {
            assertThat(transcoder.decode(transcoder.encode(value))).isEqualTo(value);
        }
    }

    /**
     * Numbers are read in the forms this transcoder writes and memcached's counters leave (spaces
     * after a decrement that lost digits; unsigned longs above {@link Long#MAX_VALUE}), not in
     * the other forms {@code valueOf} would also take.
     */
    @Test
    void numbersAreReadInTheFormsWrittenAndNoOthers() {
        assertThat(transcoder.decode(new CachedData(2 << 16, "9 ".getBytes()))).isEqualTo(9);
        assertThat(transcoder.decode(new CachedData(3 << 16, "0    ".getBytes()))).isEqualTo(0L);
        assertThat(transcoder.decode(new CachedData(3 << 16, "18446744073709551615".getBytes()))).isEqualTo(-1L);
        assertThat(transcoder.decode(new CachedData(3 << 16, "-5".getBytes()))).isEqualTo(-5L);
        assertThat(transcoder.decode(new CachedData(4 << 16, "1 ".getBytes()))).isEqualTo((short) 1);
        assertThat(transcoder.decode(new CachedData(5 << 16, "0  ".getBytes()))).isEqualTo((byte) 0);
        for (String text : List.of(" 9", "9\t", "", " ", "18446744073709551616", "2147483648")) {
            assertThatThrownBy(() -> transcoder.decode(new CachedData(text.length() > 12 ? 3 << 16 : 2 << 16, text.getBytes())))
                    .as("'%s'", text).isInstanceOf(TranscoderException.class);
        }
        for (String text : List.of("1.5f", "1.5d", " 1.5", "1.5 ", "0x1p3", "1", "1.", ".5", "1e5", "+1.5", "NaNx", "")) {
            assertThatThrownBy(() -> transcoder.decode(new CachedData(6 << 16, text.getBytes()))).as("float '%s'", text)
                    .isInstanceOf(TranscoderException.class).hasMessageContaining("FLOAT as text");
            assertThatThrownBy(() -> transcoder.decode(new CachedData(7 << 16, text.getBytes()))).as("double '%s'", text)
                    .isInstanceOf(TranscoderException.class).hasMessageContaining("DOUBLE as text");
        }
    }

    @Test
    void textWithAnUnpairedSurrogateHasNoUtf8FormAndIsSerialized() {
        for (char c : new char[] {'\uD800', '\uDBFF', '\uDC00', '\uDFFF'}) {
            CachedData data = transcoder.encode(c);
            assertThat(data.flags()).isEqualTo(DefaultTranscoder.SERIALIZED);
            assertThat(transcoder.decode(data)).isEqualTo(c);
            for (String text : List.of("a" + c, c + "b", "x".repeat(100) + c + "y".repeat(100), "\uD83D\uDC3B" + c)) {
                CachedData stored = transcoder.encode(text);
                assertThat(stored.flags()).as(text).isEqualTo(DefaultTranscoder.SERIALIZED);
                assertThat(transcoder.decode(stored)).isEqualTo(text);
                assertThatThrownBy(() -> Transcoder.string().encode(text)).isInstanceOf(TranscoderException.class)
                        .hasMessageContaining("unpaired surrogate");
            }
        }
        // Pairs, and text near them, are text.
        for (String text : List.of("\uD83D\uDC3B", "a\uD83D\uDC3Bb", "\uD7FF\uE000", "?")) {
            CachedData stored = transcoder.encode(text);
            assertThat(stored.flags()).as(text).isZero();
            assertThat(new String(stored.bytes(), StandardCharsets.UTF_8)).isEqualTo(text);
            assertThat(Transcoder.string().decode(Transcoder.string().encode(text))).isEqualTo(text);
        }
    }

    @Test
    void bytesAreStoredAsTheyAre() {
        byte[] raw = {1, 2, 3};
        CachedData data = transcoder.encode(raw);
        assertThat(data.bytes()).isSameAs(raw);
        assertThat((byte[]) transcoder.decode(data)).containsExactly(1, 2, 3);
    }

    @Test
    void jdkValueTypesDeserializeByDefault() {
        Object value = Map.of("when", Instant.ofEpochSecond(1), "amount", new BigDecimal("1.25"));
        assertThat(transcoder.decode(transcoder.encode(value))).isEqualTo(value);
    }

    @Test
    void theJdkPackagesAreAllowedWithoutTheirSubPackages() {
        CachedData data = transcoder.encode(new ConcurrentHashMap<>(Map.of("k", 1)));
        assertThatThrownBy(() -> transcoder.decode(data)).isInstanceOf(TranscoderException.class)
                .hasMessageContaining("allow-list");
        // One package is not enough: its serialized form holds ReentrantLocks (java.util.concurrent.locks).
        assertThatThrownBy(() -> DefaultTranscoder.builder().allow("java.util.concurrent.*").build().decode(data))
                .isInstanceOf(TranscoderException.class);
        DefaultTranscoder allowing = DefaultTranscoder.builder().allow("java.util.concurrent.**").build();
        assertThat(allowing.decode(data)).isEqualTo(Map.of("k", 1)).isInstanceOf(ConcurrentHashMap.class);
    }

    @Test
    void classesOutsideTheAllowListAreRejected() {
        CachedData data = transcoder.encode(new Custom(1));
        assertThatThrownBy(() -> transcoder.decode(data)).isInstanceOf(TranscoderException.class)
                .hasMessageContaining("allow-list");
        DefaultTranscoder allowing = DefaultTranscoder.builder().allow(Custom.class.getName()).build();
        assertThat(allowing.decode(data)).isEqualTo(new Custom(1));
    }

    @Test
    void largeValuesAreCompressedOnlyAboveTheThreshold() {
        String large = "abc".repeat(10_000);
        CachedData compressed = transcoder.encode(large);
        assertThat(compressed.flags() & DefaultTranscoder.COMPRESSED).isNotZero();
        assertThat(compressed.bytes().length).isLessThan(large.length() / 10);
        assertThat(transcoder.decode(compressed)).isEqualTo(large);
        assertThat(transcoder.encode("abc".repeat(100)).flags()).isZero();

        DefaultTranscoder never = DefaultTranscoder.builder().compressionThreshold(Integer.MAX_VALUE).build();
        assertThat(never.encode(large).flags()).isZero();
    }

    @Test
    void corruptOrUnknownItemsAreTypedErrors() {
        assertThatThrownBy(() -> transcoder.decode(new CachedData(DefaultTranscoder.COMPRESSED, new byte[] {1, 2})))
                .isInstanceOf(TranscoderException.class);
        assertThatThrownBy(() -> transcoder.decode(new CachedData(15 << 8, new byte[] {1})))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("unknown flags");
        assertThatThrownBy(() -> transcoder.decode(new CachedData(2 << 16, "x".getBytes())))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("INTEGER as text");
        assertThatThrownBy(() -> transcoder.decode(new CachedData(1 << 16, "yes".getBytes())))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("BOOLEAN as text");
        assertThatThrownBy(() -> transcoder.decode(new CachedData(9 << 16, "xy".getBytes())))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("CHARACTER as text");
        assertThatThrownBy(() -> transcoder.decode(new CachedData(2 << 8, new byte[5])))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("spymemcached-encoded INTEGER");
        assertThatThrownBy(() -> transcoder.decode(new CachedData(1 << 8, "t".getBytes())))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("spymemcached-encoded BOOLEAN");
        assertThatThrownBy(() -> transcoder.decode(new CachedData(2 << 8 | 2 << 16, new byte[1])))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("unknown flags");
        // Python clients' zlib bit 3, bits no client sets, and Python's text bits with another.
        for (int flags : new int[] {8, 32, 1 << 20, 1 << 31, 16 | 1, 4 | 2, 16 | 1 << 8}) {
            assertThatThrownBy(() -> transcoder.decode(new CachedData(flags, "x".getBytes())))
                    .isInstanceOf(TranscoderException.class).hasMessageContaining("unknown flags")
                    .hasMessageContaining("Transcoder.bytes()");
        }
        assertThatThrownBy(() -> transcoder.encode(new Object())).isInstanceOf(TranscoderException.class);
    }

    @Test
    void anyStoredItemDecodesOrIsATranscoderException() {
        // Items another client (or garbage) left: every flag this transcoder or the Java and Python
        // clients use, alone and combined, and random ones, over random bytes.
        int[] flagBits = {0, 1, 2, 8, 16, 32, 1 << 8, 2 << 8, 3 << 8, 4 << 8, 5 << 8, 6 << 8, 7 << 8, 8 << 8, 9 << 8,
                15 << 8, 1 << 16, 2 << 16, 3 << 16, 4 << 16, 5 << 16, 6 << 16, 7 << 16, 9 << 16, 15 << 16};
        java.util.Random random = new java.util.Random(11);
        for (int i = 0; i < 20_000; i++) {
            int flags = switch (i % 4) {
                case 0 -> random.nextInt();
                // Any value of the bits the transcoder reads (0, 1, 8–15, 16–19).
                case 1 -> random.nextInt() & 0xF_FF_03;
                default -> flagBits[random.nextInt(flagBits.length)] | (random.nextBoolean() ? flagBits[random.nextInt(3)] : 0);
            };
            byte[] bytes = new byte[random.nextInt(12)];
            random.nextBytes(bytes);
            if (random.nextInt(4) == 0) {
                bytes = Integer.toString(random.nextInt()).getBytes(StandardCharsets.UTF_8);
            }
            CachedData item = new CachedData(flags, bytes);
            assertThatCode(() -> {
                try {
                    transcoder.decode(item);
                } catch (TranscoderException expected) {
                    // The one failure a caller is promised.
                }
            }).as("flags 0x%x", flags).doesNotThrowAnyException();
        }
    }

    /**
     * Text flags over bytes that are not all UTF-8 (Python's {@code bytes} are stored with flags
     * 0): a string is read only when it is the stored bytes, re-encoded; anything else is a
     * {@link TranscoderException}, never text with U+FFFD in place of the bytes, which a
     * read-modify-write would store over the value. A U+FFFD that is stored reads as itself.
     */
    @Test
    void textIsReadOnlyWhenItIsTheStoredBytes() throws IOException {
        java.util.Random random = new java.util.Random(23);
        int refused = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = new byte[random.nextInt(40)];
            random.nextBytes(bytes);
            if (i % 3 == 0) {
                // Mostly text, with a byte or two that may break it: the lenient decoder's cases.
                bytes = ("ok \uFFFD é 日 🐻 " + i).getBytes(StandardCharsets.UTF_8);
                bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
            }
            int flags = new int[] {0, 16, 4, 2}[i % 4];
            CachedData item = new CachedData(flags, flags == 2 ? gzipOf(bytes) : bytes);
            for (Transcoder<?> reader : List.of(transcoder, Transcoder.string())) {
                Object read;
                try {
                    read = reader.decode(item);
                } catch (TranscoderException e) {
                    refused++;
                    continue;
                }
                assertThat(((String) read).getBytes(StandardCharsets.UTF_8)).as("flags %d, %s", flags, reader).isEqualTo(bytes);
            }
        }
        assertThat(refused).as("items refused").isGreaterThan(10_000);
        assertThat(transcoder.decode(new CachedData(0, "\uFFFD".getBytes(StandardCharsets.UTF_8)))).isEqualTo("\uFFFD");
        assertThatThrownBy(() -> transcoder.decode(new CachedData(0, new byte[] {'a', (byte) 0xFF})))
                .isInstanceOf(TranscoderException.class).hasMessageContaining("Transcoder.bytes()");
    }

    @Test
    void valuesAreReadAsTheClassesOfTheGivenLoader() throws Exception {
        // A restart-style loader (as DevTools uses): it defines Custom again, apart from the test's own copy.
        URL testClasses = Custom.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader restarted = new URLClassLoader(new URL[] {testClasses}, ClassLoader.getPlatformClassLoader())) {
            Class<?> reloaded = restarted.loadClass(Custom.class.getName());
            assertThat(reloaded).isNotSameAs(Custom.class);
            Constructor<?> constructor = reloaded.getDeclaredConstructor(int.class);
            constructor.setAccessible(true);
            Object value = constructor.newInstance(7);
            DefaultTranscoder.Builder allowing = DefaultTranscoder.builder().allow(Custom.class.getName());
            CachedData data = allowing.build().encode(value);

            assertThat(allowing.classLoader(restarted).build().decode(data)).isEqualTo(value).isInstanceOf(reloaded);
            // Without it, Java serialization resolves the class from the caller's loader: the old class.
            assertThat(allowing.classLoader(null).build().decode(data)).isInstanceOf(Custom.class);
        }
    }

    /**
     * allow() takes only allow patterns: a reject pattern ("!..."), a list joined by ";" (which
     * could smuggle in "!*"-style entries or a whole second filter) and a blank pattern are refused
     * when given, not turned into a filter that does something else.
     */
    @Test
    void allowTakesOnlyAllowPatterns() {
        for (String pattern : new String[] {"!com.example.*", "com.example.*;java.io.*", " ", ""}) {
            assertThatThrownBy(() -> DefaultTranscoder.builder().allow(pattern)).as(pattern)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an allow pattern");
        }
        assertThat(DefaultTranscoder.builder().allow(" com.example.* ").build().allowedClasses())
                .endsWith("com.example.*").contains("java.lang.*", "java.util.*", "java.time.*", "java.math.*");
    }

    record Custom(int id) implements java.io.Serializable {
    }
}
