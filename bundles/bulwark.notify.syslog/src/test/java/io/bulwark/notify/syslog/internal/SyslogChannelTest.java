package io.bulwark.notify.syslog.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import io.bulwark.notify.api.ChannelConfig;
import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.DeliveryException;
import io.bulwark.notify.api.Notification;
import io.bulwark.notify.api.Notification.Event;
import io.bulwark.testing.receivers.RsyslogReceiver;
import io.bulwark.testing.receivers.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The syslog channel against Debian's rsyslogd on loopback: RFC 5424 messages over TLS (RFC 5425,
 * rsyslog's gtls driver; the client is BCJSSE in FIPS mode) arrive with their priority, MSGID,
 * structured data and text as rsyslog parses them; a receiver whose certificate is not from the
 * configured CA is refused; a receiver that went away fails the next send (to be retried) rather
 * than swallowing it in a dead connection; plain TCP and UDP work only where allowed.
 */
class SyslogChannelTest {
  @TempDir Path dir;

  @BeforeAll
  static void fips() {
    io.bulwark.testing.FipsProviders.install();
  }

  @Test
  void findingsArriveAtRsyslogOverTlsAsParsedRfc5424() throws Exception {
    try (RsyslogReceiver rsyslog = RsyslogReceiver.startTls(dir.resolve("rsyslog"))) {
      ChannelConfig config = tls("siem", rsyslog.port(), Files.readString(rsyslog.caPem()));
      try (ChannelSender sender = new SyslogChannel().open(config)) {
        sender.send(List.of(notification(Event.OPENED, finding(Severity.CRITICAL))));
        sender.send(
            List.of(
                notification(
                    Event.RESOLVED,
                    finding(Severity.CRITICAL).resolve(Instant.parse("2026-12-02T10:10:00Z")))));
      }
      List<Map<String, String>> got = rsyslog.awaitParsed(2, Duration.ofSeconds(10));
      Map<String, String> opened = got.get(0);
      assertEquals(Integer.toString(16 * 8 + 2), opened.get("pri"), opened.toString());
      assertEquals("16", opened.get("facility"), "local0");
      assertEquals("2", opened.get("severity"), "crit");
      assertEquals("1", opened.get("version"));
      assertEquals("bulwark-1", opened.get("hostname"));
      assertEquals("bulwark", opened.get("app-name"));
      assertEquals("finding.opened", opened.get("msgid"));
      String sd = opened.get("structured-data");
      assertTrue(sd.startsWith("[bulwark@32473 "), sd);
      assertTrue(sd.contains("node=\"dgx-a07\""), sd);
      assertTrue(sd.contains("gpu=\"3\""), sd);
      assertTrue(sd.contains("kind=\"xid\""), sd);

      assertTrue(sd.contains("[labels@32473 rack=\"a\\]07\"]"), sd);
      assertTrue(
          opened.get("msg").contains("CRITICAL xid on dgx-a07 GPU 3: XID 79"), opened.get("msg"));
      assertTrue(opened.get("msg").contains("Recommended: Drain dgx-a07"), opened.get("msg"));
      Map<String, String> resolved = got.get(1);
      assertEquals("5", resolved.get("severity"), "notice");
      assertEquals("finding.resolved", resolved.get("msgid"));
      assertTrue(resolved.get("structured-data").contains("resolvedAt=\"2026-12-02T10:10:00Z\""));
    }
  }

  @Test
  void aReceiverWithACertificateFromAnotherCaIsRefused() throws Exception {
    TestCertificates other = TestCertificates.create(dir.resolve("other-ca"));
    try (RsyslogReceiver rsyslog = RsyslogReceiver.startTls(dir.resolve("rsyslog"))) {
      ChannelConfig config = tls("siem", rsyslog.port(), Files.readString(other.caPem()));
      try (ChannelSender sender = new SyslogChannel().open(config)) {
        DeliveryException e =
            assertThrows(
                DeliveryException.class,
                () -> sender.send(List.of(notification(Event.OPENED, finding(Severity.WARNING)))));
        assertTrue(e.retryable());
        assertTrue(e.getMessage().contains("TLS failed"), e.getMessage());
        assertTrue(e.getMessage().contains("tls://127.0.0.1:" + rsyslog.port()), e.getMessage());
      }
      Thread.sleep(300);
      assertTrue(rsyslog.messages().isEmpty());
    }
  }

  @Test
  void aReceiverThatWentAwayIsNoticedBeforeAMessageIsWrittenIntoItsDeadConnection()
      throws Exception {
    TestCertificates certs = TestCertificates.create(dir.resolve("ca"));
    int port;
    ChannelSender sender;
    try (RsyslogReceiver first = RsyslogReceiver.startTls(dir.resolve("r1"), certs)) {
      port = first.port();
      sender = new SyslogChannel().open(tls("siem", port, Files.readString(certs.caPem())));
      sender.send(List.of(notification(Event.OPENED, finding(Severity.WARNING))));
      first.awaitMessages(1, Duration.ofSeconds(10));
    }
    // The receiver is gone: the next message is refused, not written into a dead connection.
    DeliveryException e =
        assertThrows(
            DeliveryException.class,
            () -> sender.send(List.of(notification(Event.CHANGED, finding(Severity.CRITICAL)))));
    assertTrue(e.retryable());
    sender.close();
  }

  @Test
  void plainTcpAndUdpNeedTheAdministratorsConsent() throws Exception {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new SyslogChannel()
                    .open(config("siem", Map.of("host", "127.0.0.1", "transport", "tcp"))));
    assertTrue(refused.getMessage().contains("allowPlaintext"), refused.getMessage());
    try (RsyslogReceiver tcp = RsyslogReceiver.startPlainTcp(dir.resolve("tcp"));
        RsyslogReceiver udp = RsyslogReceiver.startUdp(dir.resolve("udp"))) {
      for (RsyslogReceiver r : List.of(tcp, udp)) {
        ChannelConfig c =
            config(
                "siem",
                Map.of(
                    "host", "127.0.0.1",
                    "port", Integer.toString(r.port()),
                    "transport", r.transport().name().toLowerCase(java.util.Locale.ROOT),
                    "allowPlaintext", "true",
                    "facility", "daemon"));
        try (ChannelSender sender = new SyslogChannel().open(c)) {
          sender.send(List.of(notification(Event.OPENED, finding(Severity.WARNING))));
        }
        Map<String, String> got = r.awaitParsed(1, Duration.ofSeconds(10)).get(0);
        assertEquals("3", got.get("facility"), "daemon over " + r.transport() + ": " + got);
        assertEquals("4", got.get("severity"), "warning");
      }
    }
  }

  @Test
  void tlsNeedsTheReceiversCa() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new SyslogChannel().open(config("siem", Map.of("host", "siem.example"))));
    assertTrue(e.getMessage().contains("caCertificate"), e.getMessage());
    IllegalArgumentException facility =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new SyslogChannel()
                    .open(
                        config(
                            "siem",
                            Map.of(
                                "host",
                                "h",
                                "transport",
                                "udp",
                                "allowPlaintext",
                                "true",
                                "facility",
                                "mail"))));
    assertTrue(facility.getMessage().contains("facility"), facility.getMessage());
  }

  private static ChannelConfig tls(String name, int port, String caPem) {
    return config(
        name, Map.of("host", "127.0.0.1", "port", Integer.toString(port), "caCertificate", caPem));
  }

  private static ChannelConfig config(String name, Map<String, String> settings) {
    return new ChannelConfig(name, settings, null, "bulwark-1", "");
  }

  private static Finding finding(Severity severity) {
    Instant t = Instant.parse("2026-12-02T10:00:00Z");
    return new Finding(
        "f-1",
        "xid",
        new NodeId("dgx-a07"),
        3,
        severity,
        FindingState.OPEN,
        t,
        t,
        null,
        "XID 79 (GPU fallen off the bus)",
        Map.of("xid", "79"),
        "Drain dgx-a07 and reset GPU 3",
        0.0,
        4,
        "GPU-5fa1c2d4-0000-4000-8000-000000000003");
  }

  private static Notification notification(Event event, Finding f) {
    return new Notification(
        f.id() + ":" + event,
        event,
        f,
        Map.of("rack", "a]07"),
        Instant.parse("2026-12-02T10:00:01Z"));
  }
}
