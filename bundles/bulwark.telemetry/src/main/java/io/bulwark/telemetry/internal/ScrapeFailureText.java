package io.bulwark.telemetry.internal;

import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.lib.exposition.ParseSummary;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.StreamResetException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * Puts why a scrape failed into the words an operator acts on: which target, what happened, and
 * what to check ("connection refused by 10.0.0.5:9400: is dcgm-exporter running on gpu-node-007?").
 * Used for {@link io.bulwark.api.telemetry.TargetStatus#lastError()} and the log.
 */
final class ScrapeFailureText {
  private ScrapeFailureText() {}

  /**
   * Describes {@code failure} of a scrape of {@code target}, expected to be on node {@code node}.
   */
  static String describe(Throwable failure, ScrapeTarget target, String node, long timeoutMillis) {
    String address = target.address();
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      String message = String.valueOf(cause.getMessage());
      String lower = message.toLowerCase(Locale.ROOT);
      if (cause instanceof ScrapeException) {
        return message;
      }
      if (cause instanceof UnknownHostException) {
        return "cannot resolve the host of "
            + address
            + ": check this target in the targets file and the"
            + " appliance's DNS";
      }
      if (cause instanceof ConnectException) {
        if (lower.contains("refused")) {
          return "connection refused by " + address + ": is dcgm-exporter running on " + node + "?";
        }
        if (lower.contains("timed out") || lower.contains("timeout")) {
          return "could not connect to "
              + address
              + " within "
              + timeoutMillis
              + " ms: is "
              + node
              + " up and the port reachable from Bulwark?";
        }
        return "cannot connect to "
            + address
            + " ("
            + message
            + "): is "
            + node
            + " up and dcgm-exporter running?";
      }
      if (cause instanceof NoRouteToHostException) {
        return "no route to " + address + ": is " + node + " powered on and on the network?";
      }
      if (cause instanceof SSLException) {
        return "TLS with "
            + address
            + " failed ("
            + message
            + "): check __scheme__ of this target and the"
            + " exporter's certificate";
      }
      if (cause instanceof HttpClosedException
          || cause instanceof StreamResetException
          || (cause instanceof SocketException && lower.contains("reset"))) {
        return address
            + " closed the connection before the page was complete: is dcgm-exporter on "
            + node
            + " restarting?";
      }
    }
    return "scrape of "
        + target.url()
        + " failed: "
        + failure.getClass().getSimpleName()
        + ": "
        + failure.getMessage();
  }

  /** Describes a scrape that got no complete page within the timeout. */
  static String timeout(ScrapeTarget target, String node, long timeoutMillis) {
    return "no complete answer from "
        + target.url()
        + " within "
        + timeoutMillis
        + " ms (scrapeTimeoutMillis):"
        + " is "
        + node
        + " overloaded, or the exporter hanging?";
  }

  /** Describes an answer with an HTTP status other than 200. */
  static String httpStatus(
      ScrapeTarget target, String node, int status, String reason, String bodyStart) {
    String hint =
        status == 404
            ? "check __metrics_path__ of this target in the targets file"
            : "the exporter on " + node + " answered with an error; check its log";
    String body = bodyStart.isBlank() ? "" : " \"" + bodyStart.strip() + "\"";
    return "HTTP " + status + " " + reason + " from " + target.url() + body + ": " + hint;
  }

  /** Describes a page larger than telemetry accepts. */
  static String tooLarge(ScrapeTarget target, int limitBytes) {
    return "page from "
        + target.url()
        + " is larger than "
        + (limitBytes >> 20)
        + " MiB: is this a dcgm-exporter?";
  }

  /** Describes a page in which not a single line was a valid sample. */
  static String garbage(ScrapeTarget target, ParseSummary summary) {
    return "page from "
        + target.url()
        + " has no valid samples, "
        + summary.describeMalformed()
        + ": is this a Prometheus exporter?";
  }

  /**
   * Describes a page refused for malformed lines: which, and that the exporter on {@code node} must
   * be fixed; nothing of the page was filed.
   */
  static String malformed(ScrapeTarget target, String node, ParseSummary summary) {
    return "page from "
        + target.url()
        + " refused, as Prometheus refuses it: "
        + summary.describeMalformed()
        + "; none of its samples was used. The exporter on "
        + node
        + " writes the text format wrongly: check its version and counters file";
  }
}
