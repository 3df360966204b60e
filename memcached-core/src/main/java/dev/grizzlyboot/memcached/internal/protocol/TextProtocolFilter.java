package dev.grizzlyboot.memcached.internal.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.grizzlyboot.memcached.MemcachedProtocolException;
import dev.grizzlyboot.memcached.ServerStatus;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/**
 * Grizzly filter that decodes the text protocol's answers to {@code get} and {@code gets} into
 * {@link Response}s, as {@link BinaryProtocolFilter} does binary ones: a {@code VALUE} line and its
 * data become the response a binary hit carrying its key would be (opcode GET, flags, CAS token,
 * key, value), {@code END} the terminator's answer (opcode NOOP), and {@code ERROR},
 * {@code CLIENT_ERROR} or {@code SERVER_ERROR} a NOOP with an error status and the server's text.
 * Stateless and shared by all text connections.
 *
 * <p>Anything else, a line over {@value #MAX_LINE} bytes, a number out of range, a value over the
 * limit or data not ended by CRLF, closes the connection with a {@link MemcachedProtocolException},
 * before a value is allocated.
 */
public final class TextProtocolFilter extends BaseFilter {

    /** The longest answer line read: {@code VALUE}, a 250-byte key and three numbers fit with room to spare. */
    static final int MAX_LINE = 512;
    private static final byte[] VALUE = "VALUE ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "END".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ERROR = "ERROR".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLIENT_ERROR = "CLIENT_ERROR".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER_ERROR = "SERVER_ERROR".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMPTY = new byte[0];
    private static final Response END_OF_VALUES = new Response(Opcode.NOOP.code(), 0, 0, 0, 0, EMPTY, EMPTY);
    private static final int KEY_LIMIT = 250;
    /** {@code VALUE k 0 0}, CRLF, and the CRLF after no data. */
    private static final int MIN_VALUE_ANSWER = VALUE.length + 5 + 2 + 2;
    /** {@code Answers.fields}' answers for a line that is not a {@code VALUE} one. */
    private static final int BAD_KEY = -1;
    private static final int BAD_NUMBER = -2;
    /** The largest unsigned 64-bit number divided by ten: one more digit after it overflows, or after it a digit over 5. */
    private static final long UNSIGNED_MAX_TENTH = Long.divideUnsigned(-1L, 10);

    private final int maxValueLength;

    /** @param maxValueLength the largest value accepted; anything larger is treated as garbage */
    public TextProtocolFilter(int maxValueLength) {
        this.maxValueLength = maxValueLength;
    }

    /** Whether a decoded text answer is the last of its command's: {@code END} or an error line. */
    static boolean endsReply(Response response) {
        return response.opcode() == Opcode.NOOP.code();
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Buffer input = ctx.getMessage();
        int start = input.position();
        int available = input.remaining();
        // An array-backed read is decoded in place, and a partial answer costs one line's parse. A
        // composite one (a partial answer kept from the last read) is measured first, so that it is
        // copied only once the answer is whole (a large value arrives over many reads).
        int first = input.hasArray() ? -1 : firstAnswerLength(input, start, available);
        if (first == 0 || first > available) {
            return ctx.getStopAction(input);
        }
        Answers answers = new Answers();
        int decoded = DecodedRead.decode(input, start, available, first, answers::decode);
        return DecodedRead.forward(ctx, input, start, decoded, answers.responses, answers.problem);
    }

    /**
     * How long the first answer is, read from its line alone: 0 while the line is incomplete, -1
     * if it cannot begin an answer (the decoder then says why).
     */
    private int firstAnswerLength(Buffer input, int start, int available) {
        int limit = Math.min(available, MAX_LINE);
        for (int i = 0; i < limit; i++) {
            if (input.get(start + i) == '\n') {
                byte[] line = DecodedRead.copy(input, start, i + 1);
                if (!startsWith(line, 0, line.length, VALUE)) {
                    return i + 1;
                }
                Answers header = new Answers();
                return header.valueHeader(line, 0, i - 1) ? i + 1 + header.valueLength + 2 : -1;
            }
        }
        return available >= MAX_LINE ? -1 : 0;
    }

    /**
     * The answers decoded from one read, and why decoding stopped early at bytes that are not an
     * answer. Package-private for the decoding test and the codec's micro-benchmark.
     */
    final class Answers {

        final List<Response> responses = new ArrayList<>();
        String problem;
        /** The fields of the last VALUE line read. */
        private int keyEnd;
        private int flags;
        private int valueLength;
        private long cas;
        private long number;

        /**
         * Decodes every whole answer in {@code length} bytes from {@code base}, stopping at a
         * partial one or at garbage (then {@link #problem} says why).
         *
         * @return how many bytes the decoded answers took
         */
        int decode(byte[] bytes, int base, int length) {
            int decoded = 0;
            while (problem == null && decoded < length) {
                int at = base + decoded;
                int end = base + length;
                int hit = wellFormedValue(bytes, at, end);
                if (hit > 0) {
                    decoded += hit;
                    continue;
                }
                int newline = indexOfNewline(bytes, at, Math.min(end, at + MAX_LINE));
                if (newline < 0) {
                    if (end - at >= MAX_LINE) {
                        problem = "an answer line longer than " + MAX_LINE + " bytes: '" + printable(bytes, at, Math.min(end, at + 60)) + "...'";
                    }
                    break;
                }
                if (newline == at || bytes[newline - 1] != '\r') {
                    problem = "an answer line not ended by CRLF: '" + printable(bytes, at, newline) + "'";
                    break;
                }
                int lineEnd = newline - 1;
                int lineLength = newline + 1 - at;
                int answered = startsWith(bytes, at, lineEnd, VALUE) ? value(bytes, at, lineEnd, lineLength, end)
                        : lastLine(bytes, at, lineEnd) ? lineLength : -1;
                if (answered <= 0) {
                    break;
                }
                decoded += answered;
            }
            return decoded;
        }

        /**
         * Decodes a well-formed {@code VALUE} answer whose data has all arrived, in one pass over
         * its line: nearly every answer is one, and finding the line's end before reading its
         * fields scanned each line twice. Anything else (a partial answer, garbage) returns 0 and
         * goes to the checked path below, which finds the line first and says why it is not an
         * answer.
         *
         * @return the bytes taken, or 0
         */
        private int wellFormedValue(byte[] bytes, int at, int end) {
            if (end - at < MIN_VALUE_ANSWER || !startsWith(bytes, at, end, VALUE)) {
                return 0;
            }
            int lineEnd = fields(bytes, at, end);
            int data = lineEnd + 2;
            if (lineEnd < 0 || (long) end - data < valueLength + 2L || bytes[lineEnd] != '\r' || bytes[lineEnd + 1] != '\n'
                    || bytes[data + valueLength] != '\r' || bytes[data + valueLength + 1] != '\n') {
                return 0;
            }
            return hit(bytes, at + VALUE.length, data) + (data - at);
        }

        /**
         * Decodes a {@code VALUE} line and its data.
         *
         * @return the bytes taken, 0 if the data has not all arrived, -1 on garbage
         */
        private int value(byte[] bytes, int at, int lineEnd, int lineLength, int end) {
            if (!valueHeader(bytes, at, lineEnd)) {
                return -1;
            }
            int data = at + lineLength;
            if ((long) end - data < valueLength + 2L) {
                return 0;
            }
            if (bytes[data + valueLength] != '\r' || bytes[data + valueLength + 1] != '\n') {
                problem = "a value of " + valueLength + " bytes not followed by CRLF";
                return -1;
            }
            return hit(bytes, at + VALUE.length, data) + lineLength;
        }

        /**
         * Adds the hit whose key runs from {@code keyStart} to {@link #keyEnd} and whose data
         * starts at {@code data}, with the fields of the line just read.
         *
         * @return the bytes its data and CRLF took
         */
        private int hit(byte[] bytes, int keyStart, int data) {
            byte[] key = Arrays.copyOfRange(bytes, keyStart, keyEnd);
            byte[] value = valueLength == 0 ? EMPTY : Arrays.copyOfRange(bytes, data, data + valueLength);
            responses.add(new Response(Opcode.GET.code(), 0, 0, cas, flags, key, value));
            return valueLength + 2;
        }

        /**
         * Reads {@code VALUE <key> <flags> <bytes> [<cas>]} from {@code at} to {@code lineEnd}
         * (before the CR) into {@link #keyEnd}, {@link #flags}, {@link #valueLength} and {@link #cas}.
         *
         * @return whether the line is one (if not, {@link #problem} says why)
         */
        boolean valueHeader(byte[] bytes, int at, int lineEnd) {
            int fieldsEnd = fields(bytes, at, lineEnd);
            if (fieldsEnd == lineEnd) {
                return true;
            }
            problem = fieldsEnd == BAD_KEY
                    ? "a VALUE line without a key of 1 to " + KEY_LIMIT + " bytes: '" + printable(bytes, at, lineEnd) + "'"
                    : "a VALUE line with a flags, length or CAS field that is not a number in range (values of at most "
                            + maxValueLength + " bytes): '" + printable(bytes, at, lineEnd) + "'";
            return false;
        }

        /**
         * Reads the fields of a {@code VALUE} line from {@code at}, not past {@code end}, into
         * {@link #keyEnd}, {@link #flags}, {@link #valueLength} and {@link #cas} (only {@code gets}
         * answers carry the CAS token), stopping after the last field.
         *
         * @return where the fields end (a whole line's CR; or {@code end} if it came first), or
         *         {@link #BAD_KEY} or {@link #BAD_NUMBER}
         */
        private int fields(byte[] bytes, int at, int end) {
            int keyStart = at + VALUE.length;
            int keyLimit = Math.min(end, keyStart + KEY_LIMIT + 1);
            int p = keyStart;
            while (p < keyLimit && bytes[p] != ' ' && bytes[p] != '\n') {
                p++;
            }
            if (p == keyStart || p == keyLimit || bytes[p] != ' ') {
                return BAD_KEY;
            }
            keyEnd = p;
            p = digits(bytes, p + 1, end, 0xFFFF_FFFFL);
            if (p < 0 || p == end || bytes[p] != ' ') {
                return BAD_NUMBER;
            }
            flags = (int) number;
            p = digits(bytes, p + 1, end, maxValueLength);
            if (p < 0) {
                return BAD_NUMBER;
            }
            valueLength = (int) number;
            cas = 0;
            if (p < end && bytes[p] == ' ') {
                p = digits(bytes, p + 1, end, -1L);
                if (p < 0) {
                    return BAD_NUMBER;
                }
                cas = number;
            }
            return p;
        }

        /**
         * Reads the decimal number of 1 to 20 digits from {@code from}, not past {@code end}, into
         * {@link #number}.
         *
         * @param max the largest allowed, compared as unsigned ({@code -1L}: any unsigned 64-bit number)
         * @return the position after its digits, or -1 if there are none, more than 20, or the
         *         number is over {@code max}
         */
        private int digits(byte[] bytes, int from, int end, long max) {
            long value = 0;
            int p = from;
            for (; p < end && p - from <= 20; p++) {
                int digit = bytes[p] - '0';
                if (digit < 0 || digit > 9) {
                    break;
                }
                if (Long.compareUnsigned(value, UNSIGNED_MAX_TENTH) > 0 || value == UNSIGNED_MAX_TENTH && digit > 5) {
                    return -1;
                }
                value = value * 10 + digit;
            }
            if (p == from || p - from > 20 || Long.compareUnsigned(value, max) > 0) {
                return -1;
            }
            number = value;
            return p;
        }

        /** Decodes {@code END} or an error line; anything else is garbage. */
        private boolean lastLine(byte[] bytes, int at, int lineEnd) {
            if (lineEnd - at == END.length && startsWith(bytes, at, lineEnd, END)) {
                responses.add(END_OF_VALUES);
                return true;
            }
            ServerStatus status = lineEnd - at == ERROR.length && startsWith(bytes, at, lineEnd, ERROR) ? ServerStatus.UNKNOWN_COMMAND
                    : startsWith(bytes, at, lineEnd, CLIENT_ERROR) ? ServerStatus.INVALID_ARGUMENTS
                    : startsWith(bytes, at, lineEnd, SERVER_ERROR) ? ServerStatus.INTERNAL_ERROR : null;
            if (status == null) {
                problem = "an answer line a get never has: '" + printable(bytes, at, lineEnd) + "'";
                return false;
            }
            byte[] text = Arrays.copyOfRange(bytes, at, lineEnd);
            responses.add(new Response(Opcode.NOOP.code(), status.code(), 0, 0, 0, EMPTY, text));
            return true;
        }
    }

    private static boolean startsWith(byte[] bytes, int at, int end, byte[] prefix) {
        if (end - at < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOfNewline(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static String printable(byte[] bytes, int from, int to) {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < Math.min(to, bytes.length); i++) {
            int b = bytes[i] & 0xFF;
            text.append(b >= 0x20 && b < 0x7F ? String.valueOf((char) b) : String.format("\\x%02x", b));
        }
        return text.toString();
    }
}
