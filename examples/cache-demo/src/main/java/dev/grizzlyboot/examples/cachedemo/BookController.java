package dev.grizzlyboot.examples.cachedemo;

import java.util.List;
import java.util.function.Supplier;

import org.springframework.cache.CacheManager;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The demo's HTTP API. Every answer says how long the repository call took, so the first
 * (slow) and repeated (cached) calls are visible with curl; {@code GET /showcase} runs the whole
 * tour and answers with its timings.
 */
@RestController
class BookController {

    private final BookRepository repository;
    private final CacheManager cacheManager;
    private final Showcase showcase;

    BookController(BookRepository repository, CacheManager cacheManager, Showcase showcase) {
        this.repository = repository;
        this.cacheManager = cacheManager;
        this.showcase = showcase;
    }

    /** A book and how long it took to get it. */
    record Timed<T>(T value, double millis) {
    }

    @GetMapping("/books/{isbn}")
    ResponseEntity<Timed<Book>> find(@PathVariable String isbn) {
        Timed<Book> book = timed(() -> repository.find(isbn));
        return book.value() == null ? ResponseEntity.notFound().build() : ResponseEntity.ok(book);
    }

    @PutMapping("/books/{isbn}")
    Timed<Book> save(@PathVariable String isbn, @RequestParam String title, @RequestParam String author) {
        return timed(() -> repository.save(new Book(isbn, title, author)));
    }

    @DeleteMapping("/books/{isbn}/cache")
    ResponseEntity<Void> evict(@PathVariable String isbn) {
        repository.evict(isbn);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/bestsellers")
    Timed<List<Book>> bestsellers() {
        return timed(repository::bestsellers);
    }

    /** Empties every cache (memcached has no per-cache delete: this bumps each cache's generation). */
    @DeleteMapping("/cache")
    ResponseEntity<Void> clearCaches() {
        cacheManager.getCacheNames().forEach(name -> cacheManager.getCache(name).clear());
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/showcase")
    List<Showcase.Step> showcase() {
        return showcase.run();
    }

    private static <T> Timed<T> timed(Supplier<T> call) {
        long start = System.nanoTime();
        T value = call.get();
        return new Timed<>(value, Math.round((System.nanoTime() - start) / 10_000.0) / 100.0);
    }
}
