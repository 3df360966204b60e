package dev.grizzlyboot.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The caching annotations end to end in a plain Spring context (no Spring Boot) on real memcached. */
class CachingAnnotationsTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    private AnnotationConfigApplicationContext context;
    private BookService books;

    @BeforeEach
    void setUp() {
        memcached.first().flushAll();
        context = new AnnotationConfigApplicationContext();
        context.registerBean(MemcachedClient.class, () -> TestClients.connect(memcached.addressList()));
        context.register(CachingConfiguration.class);
        context.refresh();
        books = context.getBean(BookService.class);
    }

    @AfterEach
    void tearDown() {
        context.close();
    }

    @Test
    void cacheableCachesCachePutReplacesCacheEvictRemoves() {
        assertThat(books.find("1")).isEqualTo("title-1");
        assertThat(books.find("1")).isEqualTo("title-1");
        assertThat(books.calls()).as("second call served by memcached").isEqualTo(1);

        assertThat(books.rename("1", "Dune")).isEqualTo("Dune");
        assertThat(books.find("1")).isEqualTo("Dune");
        assertThat(books.calls()).isEqualTo(2);

        books.remove("1");
        assertThat(books.find("1")).isEqualTo("title-1");
        assertThat(books.calls()).isEqualTo(3);

        books.find("2");
        books.removeAll();
        books.find("1");
        books.find("2");
        assertThat(books.calls()).as("both reloaded after allEntries eviction").isEqualTo(6);
    }

    @Test
    void syncNullAndCompletableFutureMethodsAreCached() throws Exception {
        assertThat(books.findSync("1")).isEqualTo("sync-1");
        assertThat(books.findSync("1")).isEqualTo("sync-1");
        assertThat(books.findNothing("1")).isNull();
        assertThat(books.findNothing("1")).isNull();
        assertThat(books.findAsync("1").get(5, TimeUnit.SECONDS)).isEqualTo("async-1");
        assertThat(books.findAsync("1").get(5, TimeUnit.SECONDS)).isEqualTo("async-1");

        assertThat(books.calls()).as("one call each").isEqualTo(3);
    }

    @Test
    void aKilledMemcachedDegradesToCallingTheMethod() {
        assertThat(books.find("1")).isEqualTo("title-1");

        memcached.first().kill();

        assertThat(books.find("1")).isEqualTo("title-1");
        assertThat(books.find("1")).isEqualTo("title-1");
        assertThat(books.calls()).as("every call ran the method").isEqualTo(3);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class CachingConfiguration {

        @Bean
        CacheManager cacheManager(MemcachedClient client) {
            return MemcachedCacheManager.builder(client).build();
        }

        @Bean
        BookService bookService() {
            return new BookService();
        }
    }

    static class BookService {

        private final AtomicInteger calls = new AtomicInteger();

        /** How often a method really ran (a method, since the caching proxy has no state of its own). */
        public int calls() {
            return calls.get();
        }

        @Cacheable("books")
        public String find(String isbn) {
            calls.incrementAndGet();
            return "title-" + isbn;
        }

        @CachePut(cacheNames = "books", key = "#isbn")
        public String rename(String isbn, String title) {
            calls.incrementAndGet();
            return title;
        }

        @CacheEvict("books")
        public void remove(String isbn) {
        }

        @CacheEvict(cacheNames = "books", allEntries = true)
        public void removeAll() {
        }

        @Cacheable(cacheNames = "sync", sync = true)
        public String findSync(String isbn) {
            calls.incrementAndGet();
            return "sync-" + isbn;
        }

        @Cacheable("nothing")
        public String findNothing(String isbn) {
            calls.incrementAndGet();
            return null;
        }

        @Cacheable("async")
        public CompletableFuture<String> findAsync(String isbn) {
            calls.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> "async-" + isbn);
        }
    }
}
