package io.bulwark.telemetry.internal;

/**
 * A scrape that failed for a reason telemetry already put in an operator's words (a timeout, an
 * HTTP error, a page that is too large or not an exposition page). Carries no stack trace: it is
 * reported, not debugged.
 */
final class ScrapeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ScrapeException(String message) {
    super(message, null, false, false);
  }
}
