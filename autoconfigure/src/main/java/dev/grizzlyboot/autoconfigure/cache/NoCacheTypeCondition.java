package dev.grizzlyboot.autoconfigure.cache;

import org.springframework.boot.autoconfigure.cache.CacheType;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code spring.cache.type} is not set: an explicit type (none, simple, caffeine, ...)
 * asks for one of Spring Boot's own cache managers, so ours steps aside.
 */
final class NoCacheTypeCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        ConditionMessage.Builder message = ConditionMessage.forCondition("memcached cache");
        BindResult<CacheType> type = Binder.get(context.getEnvironment()).bind("spring.cache.type", CacheType.class);
        if (type.isBound()) {
            return ConditionOutcome.noMatch(message.because("spring.cache.type is " + type.get()));
        }
        return ConditionOutcome.match(message.because("spring.cache.type is not set"));
    }
}
