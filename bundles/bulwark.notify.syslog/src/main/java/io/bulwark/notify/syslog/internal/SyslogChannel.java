package io.bulwark.notify.syslog.internal;

import io.bulwark.api.security.CryptoModule;
import io.bulwark.notify.api.ChannelConfig;
import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.ChannelSetting;
import io.bulwark.notify.api.ChannelType;
import io.bulwark.notify.api.ClientTls;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The {@code syslog} channel type: RFC 5424 messages to the site's SIEM over TLS (RFC 5425, through
 * BCJSSE, the receiver's certificate checked against the configured CA), or over plain TCP (RFC
 * 6587 octet counting) or UDP (RFC 5426) only where the administrator sets {@code allowPlaintext}.
 */
@Component(service = ChannelType.class)
public final class SyslogChannel implements ChannelType {
  static final Map<String, Integer> FACILITIES =
      Map.ofEntries(
          Map.entry("kern", 0),
          Map.entry("user", 1),
          Map.entry("daemon", 3),
          Map.entry("auth", 4),
          Map.entry("syslog", 5),
          Map.entry("authpriv", 10),
          Map.entry("local0", 16),
          Map.entry("local1", 17),
          Map.entry("local2", 18),
          Map.entry("local3", 19),
          Map.entry("local4", 20),
          Map.entry("local5", 21),
          Map.entry("local6", 22),
          Map.entry("local7", 23));

  /** The crypto module is referenced so that BCJSSE is installed before a channel opens. */
  @Activate
  public SyslogChannel(@Reference CryptoModule crypto) {}

  /** For tests, where the providers are installed by hand. */
  SyslogChannel() {}

  @Override
  public String type() {
    return "syslog";
  }

  @Override
  public List<ChannelSetting> settings() {
    return List.of(
        ChannelSetting.required(
            "host", "The syslog receiver (SIEM collector): host name or address"),
        ChannelSetting.optional("port", "Its port: 6514 for TLS (RFC 5425), 514 for TCP/UDP", ""),
        ChannelSetting.optional(
            "transport",
            "tls (RFC 5425), or tcp / udp in plain text (needs allowPlaintext)",
            "tls"),
        ChannelSetting.optional(
            "caCertificate",
            "The CA certificate(s) that signed the receiver's, in PEM (for tls)",
            ""),
        ChannelSetting.optional(
            "allowPlaintext",
            "true to allow tcp or udp: findings then cross the network readable",
            "false"),
        ChannelSetting.optional(
            "facility", "The syslog facility: local0-local7, daemon, user…", "local0"),
        ChannelSetting.optional(
            "enterpriseNumber",
            "The IANA enterprise number in the structured-data id (bulwark@N)",
            "32473"),
        ChannelSetting.optional("appName", "APP-NAME in each message", "bulwark"));
  }

  @Override
  public ChannelSender open(ChannelConfig config) {
    String host = config.required("host");
    String transport = config.setting("transport", "tls").toLowerCase(Locale.ROOT);
    boolean plaintextAllowed = config.flag("allowPlaintext", false);
    Integer facility =
        FACILITIES.get(config.setting("facility", "local0").toLowerCase(Locale.ROOT));
    if (facility == null) {
      throw new IllegalArgumentException(
          "the channel '"
              + config.name()
              + "' setting 'facility' must be one of "
              + new java.util.TreeSet<>(FACILITIES.keySet()));
    }
    SyslogMessage format =
        new SyslogMessage(
            facility,
            config.appliance(),
            config.setting("appName", "bulwark"),
            config.number("enterpriseNumber", 32473, 1, Integer.MAX_VALUE));
    switch (transport) {
      case "tls" -> {
        ClientTls tls =
            ClientTls.trusting(
                config.setting("caCertificate", null),
                "the channel '" + config.name() + "' setting 'caCertificate'");
        return new StreamSender(
            host, config.number("port", 6514, 1, 65535), tls, format, config.name());
      }
      case "tcp", "udp" -> {
        if (!plaintextAllowed) {
          throw new IllegalArgumentException(
              "the channel '"
                  + config.name()
                  + "' uses "
                  + transport
                  + ", which carries findings unencrypted: set 'allowPlaintext' to true to allow"
                  + " it, or use tls");
        }
        int port = config.number("port", 514, 1, 65535);
        return transport.equals("tcp")
            ? new StreamSender(host, port, null, format, config.name())
            : new DatagramSender(host, port, format);
      }
      default ->
          throw new IllegalArgumentException(
              "the channel '"
                  + config.name()
                  + "' setting 'transport' must be tls, tcp or udp, not '"
                  + transport
                  + "'");
    }
  }
}
