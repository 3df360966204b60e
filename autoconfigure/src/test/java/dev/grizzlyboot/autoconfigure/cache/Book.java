package dev.grizzlyboot.autoconfigure.cache;

import java.io.Serializable;

/** A cached value of an application class, so the transcoder's allow-list is exercised. */
record Book(String isbn, String title) implements Serializable {
}
