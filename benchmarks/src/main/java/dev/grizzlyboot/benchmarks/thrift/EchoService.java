package dev.grizzlyboot.benchmarks.thrift;

import java.nio.ByteBuffer;

import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.Work;
import dev.grizzlyboot.thrift.tutorial.shared.SharedStruct;

/** The benchmark's handler: {@code echo} returns its payload and nothing else does any work. Stateless. */
final class EchoService implements Calculator.Iface {

    @Override
    public ByteBuffer echo(ByteBuffer payload) {
        return payload;
    }

    @Override
    public void ping() {
    }

    @Override
    public int add(int num1, int num2) {
        return num1 + num2;
    }

    @Override
    public int calculate(int logid, Work work) {
        return 0;
    }

    @Override
    public void zip() {
    }

    @Override
    public SharedStruct getStruct(int key) {
        return new SharedStruct(key, "");
    }
}
