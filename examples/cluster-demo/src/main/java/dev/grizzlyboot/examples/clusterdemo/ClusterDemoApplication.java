package dev.grizzlyboot.examples.clusterdemo;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/**
 * One application instance of the demo: a web app with a {@code @Cacheable} greeting
 * ({@link GreetingController}), the memcached cache, the ZooKeeper-coordinated server list and the
 * actuator. {@link ClusterDemo} starts two of them.
 */
@SpringBootApplication
@EnableCaching
public class ClusterDemoApplication {
}
