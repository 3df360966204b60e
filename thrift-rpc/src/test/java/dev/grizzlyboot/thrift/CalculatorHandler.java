package dev.grizzlyboot.thrift;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.InvalidOperation;
import dev.grizzlyboot.thrift.tutorial.Work;
import dev.grizzlyboot.thrift.tutorial.shared.SharedStruct;

/**
 * The tutorial's calculator, counting calls so tests can see which server ran what. {@code add}
 * with {@link #SLEEP} as first argument sleeps for the second argument in milliseconds, with
 * {@link #BLOCK} it waits until {@link #release()}: the ways tests simulate a slow handler.
 */
public final class CalculatorHandler implements Calculator.Iface {
    public static final int SLEEP = Integer.MIN_VALUE;
    /** {@code add(BLOCK, 0)} returns 0 once the test calls {@link #release()} (or after a minute). */
    public static final int BLOCK = Integer.MIN_VALUE + 1;

    public final AtomicInteger calls = new AtomicInteger();
    public final AtomicInteger zips = new AtomicInteger();
    public final AtomicInteger slowCallsFinished = new AtomicInteger();
    private final long addDelayMillis;
    private final CountDownLatch released = new CountDownLatch(1);

    public CalculatorHandler() {
        this(0);
    }

    /** A calculator whose every {@code add} takes at least {@code addDelayMillis}: a slow server. */
    public CalculatorHandler(long addDelayMillis) {
        this.addDelayMillis = addDelayMillis;
    }

    @Override
    public void ping() {
        calls.incrementAndGet();
    }

    /** Lets every {@code add(BLOCK, 0)} call, waiting or still to come, return. */
    public void release() {
        released.countDown();
    }

    @Override
    public int add(int num1, int num2) {
        calls.incrementAndGet();
        if (num1 == BLOCK) {
            try {
                released.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
            slowCallsFinished.incrementAndGet();
            return 0;
        }
        if (num1 == SLEEP || addDelayMillis > 0) {
            try {
                Thread.sleep(num1 == SLEEP ? num2 : addDelayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
            slowCallsFinished.incrementAndGet();
            return num1 == SLEEP ? 0 : num1 + num2;
        }
        return num1 + num2;
    }

    @Override
    public int calculate(int logid, Work work) throws InvalidOperation {
        calls.incrementAndGet();
        switch (work.getOp()) {
            case ADD:
                return work.getNum1() + work.getNum2();
            case SUBTRACT:
                return work.getNum1() - work.getNum2();
            case MULTIPLY:
                return work.getNum1() * work.getNum2();
            case DIVIDE:
                if (work.getNum2() == 0) {
                    throw new InvalidOperation(work.getOp().getValue(), "Cannot divide by 0");
                }
                return work.getNum1() / work.getNum2();
            default:
                throw new InvalidOperation(work.getOp().getValue(), "Unknown operation");
        }
    }

    @Override
    public ByteBuffer echo(ByteBuffer payload) {
        calls.incrementAndGet();
        return payload;
    }

    @Override
    public void zip() {
        zips.incrementAndGet();
    }

    @Override
    public SharedStruct getStruct(int key) {
        calls.incrementAndGet();
        return new SharedStruct(key, "value " + key);
    }
}
