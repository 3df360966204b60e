package dev.grizzlyboot.autoconfigure.thrift;

import dev.grizzlyboot.autoconfigure.thrift.server.ThriftService;
import dev.grizzlyboot.thrift.CalculatorHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The tutorial calculator as the application's one {@code @ThriftService} bean, for the Thrift auto-configuration tests. */
@Configuration(proxyBeanMethods = false)
public class CalculatorHandlerConfiguration {

    @Bean
    @ThriftService
    CalculatorHandler calculatorHandler() {
        return new CalculatorHandler();
    }
}
