package dev.grizzlyboot.thrift;

import dev.grizzlyboot.thrift.server.IoStrategy;

/** {@link BadInputTest}'s input against the connection-reader strategy, which frames requests itself. */
class ConnectionReaderBadInputTest extends BadInputTest {
    @Override
    IoStrategy strategy() {
        return IoStrategy.CONNECTION_READER;
    }
}
