package dev.grizzlyboot.autoconfigure.thrift.client;

import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code grizzly.thrift.clients} has at least one entry. */
final class OnThriftClientsCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Map<String, Object> clients = Binder.get(context.getEnvironment())
                .bind("grizzly.thrift.clients", Bindable.mapOf(String.class, Object.class))
                .orElse(Map.of());
        return clients.isEmpty()
                ? ConditionOutcome.noMatch("no grizzly.thrift.clients entries")
                : ConditionOutcome.match("grizzly.thrift.clients " + clients.keySet());
    }
}
