package dev.grizzlyboot.thrift;

import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocolFactory;

/**
 * The Thrift wire protocols a server or client can speak inside each frame.
 * Both ends must choose the same one; the enum is immutable and safe to share between threads.
 */
public enum ThriftProtocol {
    /** {@code TBinaryProtocol} with strict read and write: libthrift's default and the most widely supported. */
    BINARY {
        @Override
        public TProtocolFactory factory() {
            return new TBinaryProtocol.Factory(true, true);
        }
    },
    /** {@code TCompactProtocol}: variable-length integers, smaller frames, slightly more CPU. */
    COMPACT {
        @Override
        public TProtocolFactory factory() {
            return new TCompactProtocol.Factory();
        }
    };

    /**
     * Returns a new libthrift factory for this protocol.
     *
     * @return a factory whose protocols read and write this wire format
     */
    public abstract TProtocolFactory factory();
}
