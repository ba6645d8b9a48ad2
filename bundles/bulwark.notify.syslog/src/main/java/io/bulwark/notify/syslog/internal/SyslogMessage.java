package io.bulwark.notify.syslog.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.Severity;
import io.bulwark.notify.api.Notification;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a notification as an RFC 5424 syslog message: {@code <PRI>1 TIMESTAMP HOSTNAME APP-NAME
 * PROCID MSGID [SD] MSG}, with the finding's fields as structured data under {@code
 * bulwark@<enterprise number>} (so a SIEM can parse them without reading the text) and the summary
 * and recommended action as a UTF-8 message (with the BOM the RFC asks for). Severity: critical
 * findings {@code crit}, warnings {@code warning}, resolutions {@code notice}, the rest {@code
 * info}. Stateless.
 */
final class SyslogMessage {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private final int facility;
  private final String hostname;
  private final String appName;
  private final String sdId;

  SyslogMessage(int facility, String hostname, String appName, int enterpriseNumber) {
    this.facility = facility;
    this.hostname = header(hostname, 255);
    this.appName = header(appName, 48);
    this.sdId = "bulwark@" + enterpriseNumber;
  }

  /** Returns the severity code (RFC 5424 table 2) for a notification. */
  static int severityCode(Notification n) {
    if (n.event() == Notification.Event.RESOLVED) {
      return 5;
    }
    if (n.event() == Notification.Event.TEST) {
      return 6;
    }
    return n.finding().severity() == Severity.CRITICAL
        ? 2
        : n.finding().severity() == Severity.WARNING ? 4 : 6;
  }

  /** Returns the message's bytes (without any transport framing). */
  byte[] encode(Notification n) {
    Finding f = n.finding();
    StringBuilder head = new StringBuilder(256);
    head.append('<').append(facility * 8 + severityCode(n)).append(">1 ");
    head.append(TIME.format(n.at().truncatedTo(ChronoUnit.MICROS))).append(' ');
    head.append(hostname).append(' ').append(appName).append(" - ");
    head.append("finding.").append(n.event().name().toLowerCase(Locale.ROOT)).append(' ');
    Map<String, String> params = new TreeMap<>();
    params.put("id", f.id());
    params.put("kind", f.kind());
    params.put("node", f.node().value());
    params.put("gpu", Integer.toString(f.gpu()));
    params.put("severity", f.severity().name().toLowerCase(Locale.ROOT));
    params.put("state", n.firing() ? "open" : "resolved");
    params.put("firstSeen", f.firstSeen().toString());
    if (f.resolvedAt() != null) {
      params.put("resolvedAt", f.resolvedAt().toString());
    }
    if (!f.gpuUuid().isEmpty()) {
      params.put("gpuUuid", f.gpuUuid());
    }
    head.append('[').append(sdId);
    params.forEach(
        (k, v) -> head.append(' ').append(k).append("=\"").append(escape(v)).append('"'));
    head.append(']');
    if (!n.nodeLabels().isEmpty()) {
      head.append("[labels@").append(sdId.substring(sdId.indexOf('@') + 1));
      new TreeMap<>(n.nodeLabels())
          .forEach(
              (k, v) ->
                  head.append(' ')
                      .append(paramName(k))
                      .append("=\"")
                      .append(escape(v))
                      .append('"'));
      head.append(']');
    }
    head.append(' ');
    String text = n.subject();
    if (!f.recommendedAction().isEmpty() && n.firing()) {
      text += " Recommended: " + f.recommendedAction();
    }
    byte[] h = head.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] m = text.replace('\n', ' ').getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[h.length + BOM.length + m.length];
    System.arraycopy(h, 0, out, 0, h.length);
    System.arraycopy(BOM, 0, out, h.length, BOM.length);
    System.arraycopy(m, 0, out, h.length + BOM.length, m.length);
    return out;
  }

  /** A PARAM-VALUE with '"', '\' and ']' escaped (RFC 5424 section 6.3.3). */
  static String escape(String v) {
    StringBuilder b = new StringBuilder(v.length() + 8);
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c == '"' || c == '\\' || c == ']') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }

  /** A header field: printable US-ASCII without spaces, at most {@code max}, "-" when empty. */
  static String header(String v, int max) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < v.length() && b.length() < max; i++) {
      char c = v.charAt(i);
      b.append(c > 32 && c < 127 ? c : '_');
    }
    return b.length() == 0 ? "-" : b.toString();
  }

  /** An SD-NAME: printable US-ASCII except '=', ' ', ']', '"'; at most 32. */
  static String paramName(String v) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < v.length() && b.length() < 32; i++) {
      char c = v.charAt(i);
      b.append(c > 32 && c < 127 && c != '=' && c != ']' && c != '"' ? c : '_');
    }
    return b.length() == 0 ? "_" : b.toString();
  }
}
