package dev.grizzlyboot.thrift;

import java.io.IOException;

import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;

/**
 * The program {@link ServerProcess} runs in a child JVM: a {@link ThriftServer} with the tutorial
 * calculator on 127.0.0.1 and the port given as the only argument. It prints
 * {@code LISTENING <port>} once it accepts calls, and exits when its standard input closes, so a
 * crashed test JVM leaves no server behind.
 */
public final class CalculatorServerMain {
    static final String READY = "LISTENING ";

    private CalculatorServerMain() {
    }

    public static void main(String[] args) throws IOException {
        ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(Integer.parseInt(args[0])).workerThreads(8).build().start();
        System.out.println(READY + server.port());
        System.out.flush();
        while (System.in.read() != -1) {
            // Nothing is sent on stdin; end of input means the parent is gone.
        }
        server.close();
    }
}
