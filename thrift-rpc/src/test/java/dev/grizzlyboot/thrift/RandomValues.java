package dev.grizzlyboot.thrift;

import java.nio.ByteBuffer;
import java.util.Random;

import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;

/**
 * Writes random argument structs, favouring the values where encodings change: the ends of each
 * integer range (zigzag varints in the compact protocol), NaN, infinities and negative zero,
 * booleans as struct fields (packed into the compact field header) and as container elements,
 * empty and large containers, field ids whose deltas do and do not fit the compact short form,
 * and strings that are not UTF-8.
 */
final class RandomValues {
    private static final byte[] TYPES = {TType.BOOL, TType.BYTE, TType.I16, TType.I32, TType.I64, TType.DOUBLE,
            TType.STRING, TType.STRUCT, TType.LIST, TType.SET, TType.MAP};
    private static final int MAX_DEPTH = 3;

    private final Random random;

    RandomValues(long seed) {
        this.random = new Random(seed);
    }

    void writeStruct(TProtocol out, int depth) throws TException {
        out.writeStructBegin(new TStruct("args"));
        int fields = random.nextInt(depth == 0 ? 12 : 5);
        short id = (short) (random.nextBoolean() ? 0 : random.nextInt(Short.MAX_VALUE + 1) - 16384);
        for (int i = 0; i < fields; i++) {
            id = (short) (id + (random.nextInt(4) == 0 ? random.nextInt(200) - 100 : 1 + random.nextInt(15)));
            byte type = type(depth);
            out.writeFieldBegin(new TField("f", type, id));
            write(type, out, depth);
            out.writeFieldEnd();
        }
        out.writeFieldStop();
        out.writeStructEnd();
    }

    private byte type(int depth) {
        // Containers and structs nest only so deep, so that a request stays small.
        int choices = depth >= MAX_DEPTH ? 7 : TYPES.length;
        return TYPES[random.nextInt(choices)];
    }

    private void write(byte type, TProtocol out, int depth) throws TException {
        switch (type) {
            case TType.BOOL -> out.writeBool(random.nextBoolean());
            case TType.BYTE -> out.writeByte((byte) pick(Byte.MIN_VALUE, Byte.MAX_VALUE));
            case TType.I16 -> out.writeI16((short) pick(Short.MIN_VALUE, Short.MAX_VALUE));
            case TType.I32 -> out.writeI32((int) pick(Integer.MIN_VALUE, Integer.MAX_VALUE));
            case TType.I64 -> out.writeI64(pick(Long.MIN_VALUE, Long.MAX_VALUE));
            case TType.DOUBLE -> out.writeDouble(aDouble());
            case TType.STRING -> out.writeBinary(ByteBuffer.wrap(bytes()));
            case TType.STRUCT -> writeStruct(out, depth + 1);
            case TType.LIST -> {
                byte element = type(depth + 1);
                int size = size(flat(element));
                out.writeListBegin(new TList(element, size));
                for (int i = 0; i < size; i++) {
                    write(element, out, depth + 1);
                }
                out.writeListEnd();
            }
            case TType.SET -> {
                byte element = type(depth + 1);
                int size = size(flat(element));
                out.writeSetBegin(new TSet(element, size));
                for (int i = 0; i < size; i++) {
                    write(element, out, depth + 1);
                }
                out.writeSetEnd();
            }
            default -> {
                byte key = type(depth + 1);
                byte value = type(depth + 1);
                int size = size(flat(key) && flat(value));
                out.writeMapBegin(new TMap(key, value, size));
                for (int i = 0; i < size; i++) {
                    write(key, out, depth + 1);
                    write(value, out, depth + 1);
                }
                out.writeMapEnd();
            }
        }
    }

    /** An end of the range, a value next to one, a small value around zero, or any value. */
    private long pick(long min, long max) {
        return switch (random.nextInt(6)) {
            case 0 -> min;
            case 1 -> max;
            case 2 -> random.nextBoolean() ? min + 1 : max - 1;
            case 3 -> random.nextInt(5) - 2;
            case 4 -> random.nextBoolean() ? 63 + random.nextInt(3) : -65 + random.nextInt(3);
            default -> min + (long) (random.nextDouble() * ((double) max - min));
        };
    }

    private double aDouble() {
        return switch (random.nextInt(8)) {
            case 0 -> Double.NaN;
            case 1 -> -0.0;
            case 2 -> Double.POSITIVE_INFINITY;
            case 3 -> Double.NEGATIVE_INFINITY;
            case 4 -> Double.MIN_VALUE;
            case 5 -> -Double.MAX_VALUE;
            default -> Double.longBitsToDouble(random.nextLong());
        };
    }

    /**
     * Empty, one, a few, or (rarely, and only of values that hold nothing nested) thousands:
     * compact writes sizes up to 14 in the header byte.
     */
    private int size(boolean flat) {
        return switch (random.nextInt(10)) {
            case 0 -> 0;
            case 1 -> 14 + random.nextInt(3);
            case 2 -> flat && random.nextInt(20) == 0 ? 2000 + random.nextInt(3000) : 1;
            default -> random.nextInt(6);
        };
    }

    private static boolean flat(byte type) {
        return type != TType.STRUCT && type != TType.LIST && type != TType.SET && type != TType.MAP;
    }

    /** Random bytes, which are rarely UTF-8, or nothing, or (rarely) a large run. */
    private byte[] bytes() {
        int length = switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> 127 + random.nextInt(3);
            case 2 -> random.nextInt(30) == 0 ? 70_000 : 20;
            default -> random.nextInt(12);
        };
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
