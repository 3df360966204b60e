package dev.grizzlyboot.memcached.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link TextProtocolFilter}'s decoding of one read, over generated answers: keys of every length
 * with bytes beyond ASCII, flags and CAS tokens over their whole range, values of many sizes;
 * every way a read can end inside an answer (the checked path's case); and fields one past their
 * limits. The wire-level cases (a connection closed on garbage, a real memcached's answers) are in
 * {@code MalformedTextAnswerTest} and {@code TextBulkReadTest}.
 */
class TextAnswerDecodingTest {

    private static final int MAX_VALUE = 1024 * 1024;
    private static final long[] TOKENS = {0, 1, 9, 10, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L,
            Long.MAX_VALUE, Long.MIN_VALUE, -1L};
    private static final int[] FLAGS = {0, 1, 9, 10, Integer.MAX_VALUE, Integer.MIN_VALUE, -1};

    private final TextProtocolFilter filter = new TextProtocolFilter(MAX_VALUE);
    private final Random random = new Random(20261128);

    @Test
    void everyGeneratedAnswerDecodesToItsFields() {
        for (boolean withCas : new boolean[] {false, true}) {
            List<Answer> answers = generate(2_000, withCas, 3_000);
            byte[] wire = wire(answers);

            assertDecodesAll(wire, 0, wire.length, answers);
        }
    }

    @Test
    void aReadThatEndsInsideAnAnswerDecodesOnlyTheWholeOnesBeforeIt() {
        List<Answer> answers = generate(12, true, 40);
        // The bytes after the read's end are there, as in a buffer larger than the read: they must not be looked at.
        byte[] wire = wire(answers);
        List<Integer> ends = new ArrayList<>();
        int at = 0;
        for (Answer answer : answers) {
            at += answer.bytes().length;
            ends.add(at);
        }
        for (int length = 0; length <= wire.length; length++) {
            int whole = 0;
            while (whole < ends.size() && ends.get(whole) <= length) {
                whole++;
            }
            TextProtocolFilter.Answers decoded = filter.new Answers();
            int taken = decoded.decode(wire, 0, length);

            assertThat(decoded.problem).as("a read of %d bytes", length).isNull();
            assertThat(taken).as("a read of %d bytes", length).isEqualTo(whole == 0 ? 0 : ends.get(whole - 1));
            assertMatches(decoded.responses, answers, whole);
        }
    }

    @Test
    void answersAreDecodedInPlaceFromAnOffset() {
        List<Answer> answers = generate(50, false, 600);
        byte[] wire = wire(answers);
        byte[] padded = new byte[wire.length + 20];
        System.arraycopy(wire, 0, padded, 13, wire.length);
        padded[12] = 'X';
        padded[13 + wire.length] = 'X';

        assertDecodesAll(padded, 13, wire.length, answers);
    }

    @Test
    void fieldsOnePastTheirLimitsAreGarbage() {
        String key250 = "k".repeat(250);
        assertDecodes("VALUE " + key250 + " 4294967295 0 18446744073709551615\r\n\r\n");
        assertGarbage("VALUE " + "k".repeat(251) + " 0 0\r\n\r\n", "without a key");
        assertGarbage("VALUE k 4294967296 0\r\n\r\n", "not a number in range");
        assertGarbage("VALUE k 0 0 18446744073709551616\r\n\r\n", "not a number in range");
        // Twenty digits whose first nineteen are already over Long.MAX_VALUE: a signed overflow check lets them wrap.
        assertGarbage("VALUE k 0 0 99999999999999999999\r\n\r\n", "not a number in range");
        assertGarbage("VALUE k 0 " + (MAX_VALUE + 1) + "\r\n" + "v".repeat(MAX_VALUE + 1) + "\r\n", "not a number in range");
        assertGarbage("VALUE k -1 0\r\n\r\n", "not a number in range");
        assertGarbage("VALUE k 0 1\r\nvv\r\n", "not followed by CRLF");
        assertGarbage("VALUE k 0 0\n\r\n", "not ended by CRLF");
        assertGarbage("VALUE k 0 1x\nv\r\n", "not ended by CRLF");
        assertGarbage("VALUE k 0 1 5x\nv\r\n", "not ended by CRLF");
        assertGarbage("VALUE k 0\r\n\r\n", "not a number in range");
        assertGarbage("VALUE  0 0\r\n\r\n", "without a key");
        // A line without fields, whose key would run on into a next line that reads as fields.
        assertGarbage("VALUE abc\r\n5 0 1\r\nx\r\n", "without a key");
    }

    /** {@code length} bytes from {@code base} decode to exactly {@code answers}. */
    private void assertDecodesAll(byte[] bytes, int base, int length, List<Answer> answers) {
        TextProtocolFilter.Answers decoded = filter.new Answers();
        int taken = decoded.decode(bytes, base, length);

        assertThat(decoded.problem).isNull();
        assertThat(taken).isEqualTo(length);
        assertMatches(decoded.responses, answers, answers.size());
    }

    private void assertDecodes(String text) {
        byte[] wire = text.getBytes(StandardCharsets.US_ASCII);
        TextProtocolFilter.Answers decoded = filter.new Answers();
        assertThat(decoded.decode(wire, 0, wire.length)).isEqualTo(wire.length);
        assertThat(decoded.problem).isNull();
        assertThat(decoded.responses).hasSize(1);
        assertThat(decoded.responses.get(0).flags()).isEqualTo(-1);
        assertThat(decoded.responses.get(0).cas()).isEqualTo(-1L);
    }

    private void assertGarbage(String text, String why) {
        byte[] wire = text.getBytes(StandardCharsets.US_ASCII);
        TextProtocolFilter.Answers decoded = filter.new Answers();
        assertThat(decoded.decode(wire, 0, wire.length)).as(text).isZero();
        assertThat(decoded.responses).as(text).isEmpty();
        assertThat(decoded.problem).as(text).contains(why);
    }

    /** The first {@code count} answers, decoded in order. */
    private static void assertMatches(List<Response> responses, List<Answer> answers, int count) {
        assertThat(responses).hasSize(count);
        for (int i = 0; i < count; i++) {
            Answer expected = answers.get(i);
            Response actual = responses.get(i);
            if (expected == Answer.END) {
                assertThat(TextProtocolFilter.endsReply(actual)).as("answer %d ends the reply", i).isTrue();
                assertThat(actual.ok()).isTrue();
                continue;
            }
            assertThat(TextProtocolFilter.endsReply(actual)).as("answer %d is a value", i).isFalse();
            assertThat(actual.key()).as("key %d", i).isEqualTo(expected.key());
            assertThat(actual.flags()).as("flags %d", i).isEqualTo(expected.flags());
            assertThat(actual.cas()).as("CAS token %d", i).isEqualTo(expected.cas());
            assertThat(actual.value()).as("value %d", i).isEqualTo(expected.value());
        }
    }

    /** {@code count - 1} VALUE answers, then END. */
    private List<Answer> generate(int count, boolean withCas, int maxValue) {
        List<Answer> answers = new ArrayList<>();
        for (int i = 0; i < count - 1; i++) {
            byte[] key = key(i);
            int flags = i < FLAGS.length ? FLAGS[i] : random.nextInt();
            long cas = !withCas ? 0 : i < TOKENS.length ? TOKENS[i] : random.nextBoolean() ? random.nextLong() : random.nextInt(1_000_000);
            byte[] value = new byte[i % 7 == 0 ? 0 : random.nextInt(maxValue)];
            random.nextBytes(value);
            answers.add(new Answer(key, flags, cas, value, withCas));
        }
        answers.add(Answer.END);
        return answers;
    }

    /** Keys of every length from 1 to 250 bytes, some with UTF-8 beyond ASCII. */
    private byte[] key(int index) {
        int length = index % 250 + 1;
        ByteArrayOutputStream key = new ByteArrayOutputStream();
        while (key.size() < length) {
            if (length - key.size() >= 2 && random.nextInt(5) == 0) {
                key.writeBytes("é".getBytes(StandardCharsets.UTF_8));
            } else {
                key.write('!' + random.nextInt('~' - '!' + 1));
            }
        }
        return key.toByteArray();
    }

    private static byte[] wire(List<Answer> answers) {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        answers.forEach(answer -> wire.writeBytes(answer.bytes()));
        return wire.toByteArray();
    }

    private record Answer(byte[] key, int flags, long cas, byte[] value, boolean withCas) {

        static final Answer END = new Answer(null, 0, 0, null, false);

        byte[] bytes() {
            if (key == null) {
                return "END\r\n".getBytes(StandardCharsets.US_ASCII);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes("VALUE ".getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(key);
            String fields = " " + Integer.toUnsignedString(flags) + " " + value.length
                    + (withCas ? " " + Long.toUnsignedString(cas) : "") + "\r\n";
            out.writeBytes(fields.getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(value);
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            return out.toByteArray();
        }
    }
}
