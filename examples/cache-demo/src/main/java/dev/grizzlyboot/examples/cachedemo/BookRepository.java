package dev.grizzlyboot.examples.cachedemo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Repository;

/**
 * A deliberately slow book store (every call waits {@code demo.repository-latency}, 1 s by default,
 * like a remote database would), made fast by the caching annotations: {@code books} holds single
 * books (TTL 1 h, jitter 0.2), {@code bestsellers} the bestseller list (the default TTL, 10 min).
 * Thread-safe.
 */
@Repository
public class BookRepository {

    private final Duration latency;
    private final Map<String, Book> books = new ConcurrentHashMap<>(Map.of(
            "9780134685991", new Book("9780134685991", "Effective Java", "Joshua Bloch"),
            "9780321349606", new Book("9780321349606", "Java Concurrency in Practice", "Brian Goetz"),
            "9781617294945", new Book("9781617294945", "Spring in Action", "Craig Walls")));

    BookRepository(@Value("${demo.repository-latency:1s}") Duration latency) {
        this.latency = latency;
    }

    /** The book, loaded slowly on a miss; {@code unless} keeps "not found" out of the cache. */
    @Cacheable(cacheNames = "books", unless = "#result == null")
    public Book find(String isbn) {
        slowDown();
        return books.get(isbn);
    }

    /** Saves the book (slowly) and puts it into the cache, so the next read is fast and current. */
    @CachePut(cacheNames = "books", key = "#book.isbn()")
    public Book save(Book book) {
        slowDown();
        books.put(book.isbn(), book);
        return book;
    }

    /** Drops one book from the cache (the book stays in the store). */
    @CacheEvict("books")
    public void evict(String isbn) {
    }

    /** The bestsellers, in a second cache with the default TTL. */
    @Cacheable("bestsellers")
    public List<Book> bestsellers() {
        slowDown();
        List<Book> sorted = new ArrayList<>(books.values());
        sorted.sort(Comparator.comparing(Book::title));
        return sorted;
    }

    private void slowDown() {
        try {
            Thread.sleep(latency.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
