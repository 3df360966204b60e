package dev.grizzlyboot.thrift;

import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocolFactory;

/**
 * The Thrift wire protocols a server or client can speak inside each frame.
 * Both ends must choose the same one; the enum is immutable and safe to share between threads.
 */
public enum ThriftProtocol {
    /**
     * {@code TBinaryProtocol} as libthrift's default factory makes it, the most widely supported:
     * it writes versioned messages and also reads the old unversioned form, which peers built
     * with {@code strictWrite=false} send and libthrift's and Python's servers and clients accept.
     */
    BINARY {
        @Override
        public TProtocolFactory factory() {
            return new TBinaryProtocol.Factory(false, true);
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
