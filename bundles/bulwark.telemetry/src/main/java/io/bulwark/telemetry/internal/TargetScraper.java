package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TargetStatus.Health;
import io.bulwark.lib.exposition.ExpositionParser;
import io.bulwark.lib.exposition.ParseSummary;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Scrapes one target: fetches its page without blocking (bounded by the scrape timeout and a size
 * limit), parses it on the parsing workers, files the samples, and keeps the {@link TargetStatus}.
 * A scrape never overlaps the previous one of the same target, and whatever goes wrong ends in a
 * DOWN status with an operator's message, never in an exception that could stop the other targets.
 */
final class TargetScraper {
  /** The largest page accepted. */
  static final int MAX_PAGE_BYTES = 16 << 20;

  /** After how many timeouts an unfinished scrape is taken as lost. */
  private static final int STUCK_AFTER_TIMEOUTS = 5;

  private static final System.Logger LOG = System.getLogger(TargetScraper.class.getName());
  private static final String ACCEPT = "text/plain;version=0.0.4;q=1,*/*;q=0.1";

  private final ScrapeTarget target;
  private final Vertx vertx;
  private final HttpClient client;
  private final WorkerExecutor parsers;
  private final PageBuffers buffers;
  private final ScrapePacer pacer;
  private final LongSupplier clock;
  private final ExpositionParser parser = new ExpositionParser();
  private final DcgmSampleFiler filer;
  private final AtomicBoolean inFlight = new AtomicBoolean();
  private final Queue<NodeId> forgotten = new ConcurrentLinkedQueue<>();
  private volatile long startedNanos;
  private volatile TargetStatus status;
  private volatile String loggedProblem = "";
  private volatile String lastNode = "";
  private volatile int lastPageBytes;
  private volatile String limitProblem;
  private volatile int droppedForLimits;
  private volatile int blankValues;
  private volatile String skipped = "";
  private volatile String naming = "";
  private final ScrapeLog scrapeLog;

  TargetScraper(
      ScrapeTarget target,
      SeriesStore store,
      Vertx vertx,
      HttpClient client,
      WorkerExecutor parsers,
      PageBuffers buffers,
      ScrapePacer pacer,
      LongSupplier clock,
      TargetLimits limits,
      ScrapeLog scrapeLog) {
    this.target = target;
    this.scrapeLog = scrapeLog;
    this.vertx = vertx;
    this.client = client;
    this.parsers = parsers;
    this.buffers = buffers;
    this.pacer = pacer;
    this.clock = clock;
    this.filer = new DcgmSampleFiler(store, target, limits);
    this.status = new TargetStatus(target, Health.UNKNOWN, "", null, 0, 0, "");
  }

  ScrapeTarget target() {
    return target;
  }

  TargetStatus status() {
    return status;
  }

  /**
   * Scrapes the target unless its previous scrape is still running. The future always succeeds,
   * with the status the scrape left (or the current one if it was skipped).
   */
  Future<TargetStatus> scrape() {
    long startNanos = System.nanoTime();
    long timeoutMillis = pacer.timeoutMillis();
    if (!inFlight.compareAndSet(false, true)) {
      if (startNanos - startedNanos < STUCK_AFTER_TIMEOUTS * timeoutMillis * 1_000_000L) {
        pacer.started();
        pacer.missed();
        return Future.succeededFuture(status);
      }
      // A scrape that outlived its timeout this long lost its completion (an error thrown where
      // no handler could see it): the target must not stay unscraped for ever.
      scrapeLog.log(
          Level.WARNING,
          "Scrape of {0} has not completed after {1} timeouts (lost, or queued behind an overloaded"
              + " parser); scraping it afresh",
          target.url(),
          STUCK_AFTER_TIMEOUTS);
    }
    startedNanos = startNanos;
    pacer.started();
    long scrapeMillis = clock.getAsLong();
    boolean answering = status.health() != Health.DOWN;
    Future<ParseSummary> scraped;
    try {
      scraped =
          fetch(timeoutMillis, answering)
              .compose(
                  page -> {
                    long queued = System.nanoTime();
                    return parsers.executeBlocking(
                        () -> {
                          pacer.waited((System.nanoTime() - queued) / 1_000_000);
                          return ingest(page, scrapeMillis);
                        },
                        false);
                  });
    } catch (RuntimeException | Error e) {
      // An Error here is most likely an OutOfMemoryError: fail this scrape, keep the target.
      scraped = Future.failedFuture(e);
    }
    return scraped.transform(
        result -> {
          try {
            if (result.failed() && result.cause() instanceof Error error) {
              LOG.log(
                  Level.ERROR,
                  "Scrape of "
                      + target.url()
                      + " failed with "
                      + error
                      + "; the other targets are scraped on. If this is an OutOfMemoryError,"
                      + " lower the telemetry limits or raise the heap (-Xmx)");
            }
            long micros = (System.nanoTime() - startNanos) / 1000;
            TargetStatus next =
                result.succeeded()
                    ? up(result.result(), scrapeMillis, micros)
                    : down(result.cause(), scrapeMillis, micros, timeoutMillis);
            status = next;
            return Future.succeededFuture(next);
          } finally {
            inFlight.set(false);
          }
        });
  }

  /**
   * Fetches the page within {@code timeoutMillis}; a timeout of a target that answered its previous
   * scrape or was not scraped yet ({@code answering}) counts as a missed scrape for the pacer.
   */
  private Future<Page> fetch(long timeoutMillis, boolean answering) {
    RequestOptions options =
        new RequestOptions()
            .setMethod(HttpMethod.GET)
            .setAbsoluteURI(target.url())
            .setFollowRedirects(false)
            .putHeader(HttpHeaders.ACCEPT, ACCEPT);
    // No per-request connect timeout: in Vert.x 5.0 it arms a pool-wait timer that can race a
    // connection being handed over ("Promise already completed"). The client's TCP connect timeout
    // and this scrape's own timer bound the wait instead; a request that gets its connection after
    // the timer fired is reset at once.
    Promise<Page> page = Promise.promise();
    AtomicReference<HttpClientRequest> request = new AtomicReference<>();
    long timer =
        vertx.setTimer(
            timeoutMillis,
            id -> {
              if (page.tryFail(
                  new ScrapeException(
                      ScrapeFailureText.timeout(target, expectedNode(), timeoutMillis)))) {
                pacer.timedOut(answering);
                HttpClientRequest started = request.get();
                if (started != null) {
                  started.reset();
                }
              }
            });
    client
        .request(options)
        .compose(
            started -> {
              request.set(started);
              // A request this scrape resets (its timer fired) reports the reset here; without a
              // handler Vert.x logs every one at SEVERE ("Stream reset"), thousands a minute when
              // many exporters are slow. The scrape's own result already says what happened.
              started.exceptionHandler(page::tryFail);
              if (page.future().isComplete()) {
                started.reset();
                return Future.failedFuture(new ScrapeException("scrape abandoned"));
              }
              // The body's handlers must be set as the response head is handled, on the
              // request's own context: Vert.x drops the chunks that arrive before them (and
              // refuses them after the end). A listener chained one step further out may run a
              // task later, after the first chunks: the page would lose its beginning.
              return started.send().compose(this::readBody);
            })
        .onComplete(
            result -> {
              vertx.cancelTimer(timer);
              if (result.succeeded()) {
                page.tryComplete(result.result());
              } else {
                page.tryFail(result.cause());
              }
            });
    return page.future();
  }

  private Future<Page> readBody(HttpClientResponse response) {
    Promise<Page> body = Promise.promise();
    // Sized from the target's previous page, so that a large page is not copied as it grows.
    Page received = new Page(buffers.take(lastPageBytes + lastPageBytes / 8));
    response.exceptionHandler(body::tryFail);
    response.handler(
        chunk -> {
          if (received.length + chunk.length() > MAX_PAGE_BYTES) {
            if (body.tryFail(
                new ScrapeException(ScrapeFailureText.tooLarge(target, MAX_PAGE_BYTES)))) {
              response.request().reset();
            }
          } else {
            received.append(chunk);
          }
        });
    response.endHandler(
        end -> {
          if (response.statusCode() == 200) {
            lastPageBytes = received.length;
            body.tryComplete(received);
          } else {
            String start =
                new String(
                    received.bytes, 0, Math.min(received.length, 120), StandardCharsets.UTF_8);
            int newline = start.indexOf('\n');
            body.tryFail(
                new ScrapeException(
                    ScrapeFailureText.httpStatus(
                        target,
                        expectedNode(),
                        response.statusCode(),
                        response.statusMessage(),
                        newline < 0 ? start : start.substring(0, newline))));
          }
        });
    return body.future();
  }

  /**
   * Forgets that this target filed samples under {@code node}: its next page is read in full, so
   * that nothing is filed into the forgotten node's series.
   */
  void forget(NodeId node) {
    forgotten.add(node);
  }

  /** Parses and files a page; runs on a parsing worker. */
  private ParseSummary ingest(Page page, long scrapeMillis) {
    try {
      for (NodeId node = forgotten.poll(); node != null; node = forgotten.poll()) {
        filer.forgotten(node);
        parser.forgetPreviousPage();
      }
      filer.begin(scrapeMillis);
      ParseSummary summary = parser.parse(page.bytes, page.length, filer);
      if (summary.isGarbage()) {
        filer.abort();
        throw new ScrapeException(ScrapeFailureText.garbage(target, summary));
      }
      if (summary.malformed() > 0) {
        // Refused whole, as Prometheus refuses a page its parser rejects: an exporter that writes
        // one broken line may have written others wrong that still read as numbers.
        filer.abort();
        throw new ScrapeException(ScrapeFailureText.malformed(target, expectedNode(), summary));
      }
      NodeId node = filer.finish();
      lastNode = node == null ? lastNode : node.value();
      limitProblem = filer.limitProblem();
      droppedForLimits = filer.droppedForLimits();
      blankValues = filer.blanks();
      skipped = filer.skipped();
      if (filer.filed() > 0 || filer.blanks() > 0) {
        naming = filer.naming();
      }
      return summary;
    } finally {
      buffers.give(page.bytes);
    }
  }

  private TargetStatus up(ParseSummary summary, long scrapeMillis, long micros) {
    String limited = limitProblem;
    String problem = limited != null ? "limits" : "";
    if (!problem.equals(loggedProblem)) {
      if (problem.isEmpty()) {
        scrapeLog.log(Level.INFO, "Target {0} is scraped without problems again", target.url());
      } else {
        scrapeLog.log(Level.WARNING, "Scraped {0}, but {1}", target.url(), limited);
      }
      loggedProblem = problem;
    }
    return new TargetStatus(
        target,
        Health.UP,
        lastNode,
        Instant.ofEpochMilli(scrapeMillis),
        micros,
        summary.samples(),
        limited == null ? "" : limited,
        blankValues,
        skipped,
        naming);
  }

  /** Returns the samples the last page dropped for a limit. */
  int droppedForLimits() {
    return droppedForLimits;
  }

  private TargetStatus down(Throwable failure, long scrapeMillis, long micros, long timeoutMillis) {
    String message = ScrapeFailureText.describe(failure, target, expectedNode(), timeoutMillis);
    if (!message.equals(loggedProblem)) {
      scrapeLog.log(Level.WARNING, "Scrape of {0} failed: {1}", target.url(), message);
      loggedProblem = message;
    }
    return new TargetStatus(
        target, Health.DOWN, lastNode, Instant.ofEpochMilli(scrapeMillis), micros, 0, message);
  }

  /**
   * Returns the node this target's samples go to: the last one it reported, else the one its entry
   * names.
   */
  private String expectedNode() {
    String node = lastNode;
    return node.isEmpty() ? filer.targetNode().value() : node;
  }

  /** A page as it arrives: the first {@code length} bytes of {@code bytes}. */
  private final class Page {
    byte[] bytes;
    int length;

    Page(byte[] bytes) {
      this.bytes = bytes;
    }

    void append(Buffer chunk) {
      int size = chunk.length();
      if (length + size > bytes.length) {
        byte[] grown = buffers.take(Math.max(length + size, bytes.length * 2));
        System.arraycopy(bytes, 0, grown, 0, length);
        buffers.give(bytes);
        bytes = grown;
      }
      chunk.getBytes(0, size, bytes, length);
      length += size;
    }
  }
}
