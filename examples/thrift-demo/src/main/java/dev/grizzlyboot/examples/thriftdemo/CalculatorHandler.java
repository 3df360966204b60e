package dev.grizzlyboot.examples.thriftdemo;

import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.autoconfigure.thrift.server.ThriftService;
import dev.grizzlyboot.examples.thriftdemo.api.Calculator;
import dev.grizzlyboot.examples.thriftdemo.api.DivideByZero;
import org.springframework.stereotype.Service;

/**
 * The demo's Thrift handler: a bean implementing the generated {@code Calculator.Iface}, marked
 * {@link ThriftService} so the auto-configured server exposes it. Called by the server's worker
 * threads, many at once; its only state is an atomic counter.
 */
@Service
@ThriftService
class CalculatorHandler implements Calculator.Iface {
    private final AtomicInteger notes = new AtomicInteger();

    @Override
    public int add(int a, int b) {
        return a + b;
    }

    @Override
    public int divide(int dividend, int divisor) throws DivideByZero {
        if (divisor == 0) {
            throw new DivideByZero(dividend);
        }
        return dividend / divisor;
    }

    @Override
    public void note(String text) {
        notes.incrementAndGet();
    }

    @Override
    public int notesReceived() {
        return notes.get();
    }
}
