package dev.grizzlyboot.thrift;

import java.nio.ByteBuffer;

import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;

/**
 * A processor that answers any call with a reply whose result struct is the call's argument struct,
 * value for value: it reads the arguments with the protocol's own read methods and writes each value
 * as soon as it is read, so every value type the wire can carry (booleans in fields and in
 * containers, varints at their extremes, NaN, invalid UTF-8 as binary) crosses both the server's
 * reading and its writing. Strings are read and written as binary, so their bytes come back exact.
 */
final class ValueEchoProcessor implements TProcessor {
    @Override
    public void process(TProtocol in, TProtocol out) throws TException {
        TMessage call = in.readMessageBegin();
        out.writeMessageBegin(new TMessage(call.name, TMessageType.REPLY, call.seqid));
        copyStruct(in, out);
        in.readMessageEnd();
        out.writeMessageEnd();
        out.getTransport().flush();
    }

    static void copyStruct(TProtocol in, TProtocol out) throws TException {
        in.readStructBegin();
        out.writeStructBegin(new TStruct("echo"));
        while (true) {
            TField field = in.readFieldBegin();
            if (field.type == TType.STOP) {
                break;
            }
            out.writeFieldBegin(field);
            copy(field.type, in, out);
            in.readFieldEnd();
            out.writeFieldEnd();
        }
        in.readStructEnd();
        out.writeFieldStop();
        out.writeStructEnd();
    }

    private static void copy(byte type, TProtocol in, TProtocol out) throws TException {
        switch (type) {
            case TType.BOOL -> out.writeBool(in.readBool());
            case TType.BYTE -> out.writeByte(in.readByte());
            case TType.I16 -> out.writeI16(in.readI16());
            case TType.I32 -> out.writeI32(in.readI32());
            case TType.I64 -> out.writeI64(in.readI64());
            case TType.DOUBLE -> out.writeDouble(in.readDouble());
            case TType.STRING -> {
                ByteBuffer bytes = in.readBinary();
                out.writeBinary(bytes);
            }
            case TType.STRUCT -> copyStruct(in, out);
            case TType.LIST -> {
                TList list = in.readListBegin();
                out.writeListBegin(list);
                for (int i = 0; i < list.size; i++) {
                    copy(list.elemType, in, out);
                }
                in.readListEnd();
                out.writeListEnd();
            }
            case TType.SET -> {
                TSet set = in.readSetBegin();
                out.writeSetBegin(set);
                for (int i = 0; i < set.size; i++) {
                    copy(set.elemType, in, out);
                }
                in.readSetEnd();
                out.writeSetEnd();
            }
            case TType.MAP -> {
                TMap map = in.readMapBegin();
                out.writeMapBegin(map);
                for (int i = 0; i < map.size; i++) {
                    copy(map.keyType, in, out);
                    copy(map.valueType, in, out);
                }
                in.readMapEnd();
                out.writeMapEnd();
            }
            default -> throw new TProtocolException(TProtocolException.INVALID_DATA, "no such type " + type);
        }
    }
}
