package consumer;

import dev.grizzlyboot.cache.MemcachedCacheManager;
import dev.grizzlyboot.memcached.MemcachedClient;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/**
 * Compiles only when the starter, resolved through the two BOMs from the bundle, brings the memcached
 * client, the Spring cache adapter and Spring Boot itself.
 */
@SpringBootApplication
@EnableCaching
class ConsumerApplication {

    MemcachedClient client;
    MemcachedCacheManager cacheManager;
}
