package io.bulwark.telemetry.internal;

import java.util.ArrayDeque;

/**
 * The byte arrays scraped pages are received into, shared by the targets of a scrape loop and
 * reused from scrape to scrape, so that a fleet's pages (hundreds of kilobytes per node per second)
 * do not each leave a large array behind for the collector. A scrape takes one as its response
 * starts and gives it back once the page is parsed; a scrape that fails keeps its array (the
 * response may still be writing into it) and leaves it to the collector. At most {@code maxFree}
 * arrays are kept. Thread-safe.
 */
final class PageBuffers {
  /** The smallest array handed out. */
  static final int MIN_BYTES = 64 * 1024;

  private final ArrayDeque<byte[]> free = new ArrayDeque<>();
  private final int maxFree;

  PageBuffers(int maxFree) {
    this.maxFree = maxFree;
  }

  /** Returns an array of at least {@code bytes} bytes. */
  byte[] take(int bytes) {
    int wanted = Math.max(MIN_BYTES, bytes);
    synchronized (free) {
      for (int i = free.size(); i > 0; i--) {
        byte[] array = free.pollFirst();
        if (array.length >= wanted) {
          return array;
        }
        free.addLast(array);
      }
      if (free.size() >= maxFree) {
        free.pollFirst();
      }
    }
    return new byte[wanted];
  }

  /** Takes back an array that no one uses any more. */
  void give(byte[] array) {
    synchronized (free) {
      if (free.size() < maxFree) {
        free.addFirst(array);
      }
    }
  }

  /** Returns how many arrays are kept for reuse. */
  int free() {
    synchronized (free) {
      return free.size();
    }
  }
}
