package dev.grizzlyboot.autoconfigure.thrift.server;

import org.apache.thrift.TProcessor;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;

/** Matches when the application has something to serve: a {@link ThriftService} bean or its own {@link TProcessor}. */
final class OnThriftHandlersCondition extends AnyNestedCondition {

    OnThriftHandlersCondition() {
        super(ConfigurationPhase.REGISTER_BEAN);
    }

    @ConditionalOnBean(annotation = ThriftService.class)
    static final class HandlerBeans {
    }

    @ConditionalOnBean(TProcessor.class)
    static final class ProcessorBean {
    }
}
