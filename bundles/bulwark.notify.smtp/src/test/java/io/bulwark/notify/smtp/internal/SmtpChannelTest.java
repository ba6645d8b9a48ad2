package io.bulwark.notify.smtp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import io.bulwark.testing.receivers.SmtpReceiver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mail channel against Debian's exim4 on loopback, as a site relay that requires TLS before
 * mail and offers AUTH only inside it: Bulwark's client (BCJSSE in FIPS mode) upgrades with
 * STARTTLS, authenticates with the sealed credential, and the relay delivers one readable mail per
 * group of findings; a wrong password is a failure to retry, never a mail in plain text.
 */
class SmtpChannelTest {
  @TempDir Path dir;
  @TempDir Path otherDir;

  @BeforeAll
  static void fips() {
    io.bulwark.testing.FipsProviders.install();
  }

  @Test
  void findingsArriveAsOneMailOverStartTlsAuthenticated() throws Exception {
    try (SmtpReceiver relay = SmtpReceiver.startRequiringTls(dir)) {
      ChannelConfig config = config(relay, relay.password());
      try (ChannelSender sender = new SmtpChannel().open(config)) {
        assertEquals(50, sender.maxBatch());
        sender.send(
            List.of(
                notification(Event.OPENED, finding("f-1", Severity.CRITICAL)),
                notification(
                    Event.RESOLVED,
                    finding("f-2", Severity.WARNING)
                        .resolve(Instant.parse("2026-12-02T10:20:00Z")))));
      }
      SmtpReceiver.Mail mail = relay.awaitMail(1, Duration.ofSeconds(10)).get(0);
      assertTrue(mail.overTls(), mail.raw());
      assertTrue(mail.tlsCipher().orElse("").contains("GCM"), mail.tlsCipher().toString());
      assertEquals(relay.user(), mail.authenticatedUser().orElse(""));
      assertEquals(
          List.of("oncall@site.example", "hpc-ops@site.example"), mail.envelopeRecipients());
      assertEquals("bulwark@site.example", mail.envelopeSender());
      assertEquals("[Bulwark] 2 findings: 1 opened, 1 resolved", mail.header("Subject").orElse(""));
      assertEquals("2", mail.header("X-Bulwark-Findings").orElse(""));
      String body = decode(mail.body());
      assertTrue(body.contains("CRITICAL xid on dgx-a07 GPU 3: XID 79"), body);
      assertTrue(body.contains("Recommended: Drain dgx-a07"), body);
      assertTrue(body.contains("RESOLVED xid on dgx-a07 GPU 3"), body);
      assertTrue(body.contains("rack: a07"), body);
      assertTrue(body.contains("https://bulwark.example:8443/#/findings"), body);
    }
  }

  @Test
  void aWrongPasswordIsAFailureToRetryAndNothingIsDelivered() throws Exception {
    try (SmtpReceiver relay = SmtpReceiver.startRequiringTls(dir)) {
      try (ChannelSender sender = new SmtpChannel().open(config(relay, "not-the-password"))) {
        DeliveryException e =
            assertThrows(
                DeliveryException.class,
                () ->
                    sender.send(
                        List.of(notification(Event.OPENED, finding("f-1", Severity.CRITICAL)))));
        assertTrue(e.retryable());
        assertTrue(e.getMessage().contains("refused AUTH"), e.getMessage());
        assertTrue(e.getMessage().contains("535"), e.getMessage());
      }
      Thread.sleep(300);
      assertTrue(relay.messages().isEmpty());
    }
  }

  @Test
  void aRelayWhoseCertificateIsNotFromTheConfiguredCaIsRefused() throws Exception {
    try (SmtpReceiver relay = SmtpReceiver.startRequiringTls(dir);
        SmtpReceiver other = SmtpReceiver.start(otherDir)) {
      Map<String, String> settings = new HashMap<>(config(relay, relay.password()).settings());
      settings.put("caCertificate", Files.readString(other.caPem()));
      ChannelConfig wrongCa =
          new ChannelConfig(
              "mail", settings, relay.password().getBytes(StandardCharsets.UTF_8), "bulwark-1", "");
      try (ChannelSender sender = new SmtpChannel().open(wrongCa)) {
        DeliveryException e =
            assertThrows(
                DeliveryException.class,
                () ->
                    sender.send(
                        List.of(notification(Event.OPENED, finding("f-1", Severity.CRITICAL)))));
        assertTrue(e.getMessage().contains("TLS failed"), e.getMessage());
      }
      assertTrue(relay.messages().isEmpty());
    }
  }

  @Test
  void settingsAreCheckedWithTheSettingNamed() {
    Map<String, String> base =
        Map.of(
            "host",
            "relay.example",
            "caCertificate",
            "x",
            "from",
            "bulwark@site.example",
            "to",
            "a@b.c");
    Map<String, String> plain = new HashMap<>(base);
    plain.put("security", "none");
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> new SmtpChannel().open(cfg(plain, null)))
            .getMessage()
            .contains("'security'"));
    Map<String, String> badTo = new HashMap<>(base);
    badTo.put("to", "oncall");
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> new SmtpChannel().open(cfg(badTo, null)))
            .getMessage()
            .contains("'to'"));
    Map<String, String> user = new HashMap<>(base);
    user.put("user", "bulwark");
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> new SmtpChannel().open(cfg(user, null)))
            .getMessage()
            .contains("credential"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> new SmtpChannel().open(cfg(base, null)))
            .getMessage()
            .contains("caCertificate"));
  }

  @Test
  void headersAreEncodedAndTheBodyIsDotSafe() {
    assertEquals("plain subject", SmtpSender.encodedWord("plain subject"));
    String encoded = SmtpSender.encodedWord("GPU at 91 °C");
    assertTrue(encoded.startsWith("=?UTF-8?B?"), encoded);
    assertFalse(SmtpSender.encodedWord("a\r\nBcc: x@y").contains("\n"));
  }

  private static ChannelConfig cfg(Map<String, String> settings, byte[] credential) {
    return new ChannelConfig("mail", settings, credential, "bulwark-1", "");
  }

  private static ChannelConfig config(SmtpReceiver relay, String password) throws Exception {
    return new ChannelConfig(
        "mail",
        Map.of(
            "host",
            "127.0.0.1",
            "port",
            Integer.toString(relay.port()),
            "caCertificate",
            Files.readString(relay.caPem()),
            "from",
            "bulwark@site.example",
            "to",
            "oncall@site.example, hpc-ops@site.example",
            "user",
            relay.user()),
        password.getBytes(StandardCharsets.UTF_8),
        "bulwark-1",
        "https://bulwark.example:8443");
  }

  private static String decode(String base64Body) {
    return new String(Base64.getMimeDecoder().decode(base64Body.strip()), StandardCharsets.UTF_8);
  }

  private static Finding finding(String id, Severity severity) {
    Instant t = Instant.parse("2026-12-02T10:00:00Z");
    return new Finding(
        id,
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
        "");
  }

  private static Notification notification(Event event, Finding f) {
    return new Notification(f.id() + ":" + event, event, f, Map.of("rack", "a07"), Instant.now());
  }
}
