package io.bulwark.web.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads the event stream with Java's HttpClient as a browser's EventSource would: one background
 * thread turns the body into events (name and data) that the test polls with a timeout.
 */
final class EventReader implements AutoCloseable {
  /** One event as received; comments have the name ":" and the comment as data. */
  record Event(String name, String data) {}

  private final HttpResponse<InputStream> response;
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final AtomicInteger findings = new AtomicInteger();
  private final Thread reader;

  EventReader(ApiClient client, boolean keep) throws IOException, InterruptedException {
    response =
        client
            .http()
            .send(
                client
                    .request("/api/v1/events")
                    .header("Accept", "text/event-stream")
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofInputStream());
    reader = new Thread(() -> read(keep), "event-reader");
    reader.setDaemon(true);
    reader.start();
  }

  HttpResponse<InputStream> response() {
    return response;
  }

  /** Returns the next event with this name within the timeout, skipping others; null on timeout. */
  Event next(String name, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Event e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (e == null || e.name().equals(name)) {
        return e;
      }
    }
  }

  /** How many finding events arrived so far. */
  int findingCount() {
    return findings.get();
  }

  private void read(boolean keep) {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      String name = "message";
      StringBuilder data = new StringBuilder();
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.isEmpty()) {
          if (data.length() > 0) {
            deliver(new Event(name, data.toString()), keep);
          }
          name = "message";
          data.setLength(0);
        } else if (line.startsWith(":")) {
          deliver(new Event(":", line.substring(1).strip()), keep);
        } else if (line.startsWith("event: ")) {
          name = line.substring(7);
        } else if (line.startsWith("data: ")) {
          data.append(line.substring(6));
        }
      }
    } catch (IOException e) {
      events.add(new Event("closed", String.valueOf(e.getMessage())));
    }
  }

  private void deliver(Event e, boolean keep) {
    if (e.name().equals("finding")) {
      findings.incrementAndGet();
    }
    if (keep) {
      events.add(e);
    }
  }

  @Override
  public void close() throws IOException {
    response.body().close();
  }
}
