package dev.grizzlyboot.autoconfigure.thrift.server;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean that implements a generated Thrift {@code Service.Iface} as a handler the
 * auto-configured server exposes; the processor is derived from the generated service class. Put
 * it on a component class next to {@code @Component} (or {@code @Service}), or on a {@code @Bean}
 * method. With one handler the server runs its processor directly; with several it runs a
 * {@code TMultiplexedProcessor} with each handler registered under {@link #value()}.
 *
 * <p>It is not a stereotype itself: Spring would take a stereotype's {@code value} for the bean
 * name, and the name here is the service's name on the wire.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ThriftService {

    /**
     * The name the service is registered under in a multiplexed server, which clients give as
     * {@code multiplexed-name}. Default: the generated service's simple name ({@code Calculator}).
     *
     * @return the service name, or empty for the default
     */
    String value() default "";
}
