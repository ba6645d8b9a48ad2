package io.bulwark.notify.smtp.internal;

import io.bulwark.api.security.CryptoModule;
import io.bulwark.notify.api.ChannelConfig;
import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.ChannelSetting;
import io.bulwark.notify.api.ChannelType;
import io.bulwark.notify.api.ClientTls;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The {@code smtp} channel type: mail to the site's relay, always over TLS (STARTTLS on the
 * submission port, or TLS from the first byte on 465), the relay's certificate checked against the
 * configured CA; AUTH PLAIN with the channel's credential as password when a user is set (only
 * inside TLS). One mail per group of notifications.
 */
@Component(service = ChannelType.class)
public final class SmtpChannel implements ChannelType {
  private static final Pattern ADDRESS = Pattern.compile("[^\\s<>@,;]+@[^\\s<>@,;]+");

  /** The crypto module is referenced so that BCJSSE is installed before a channel opens. */
  @Activate
  public SmtpChannel(@Reference CryptoModule crypto) {}

  SmtpChannel() {}

  @Override
  public String type() {
    return "smtp";
  }

  @Override
  public List<ChannelSetting> settings() {
    return List.of(
        ChannelSetting.required("host", "The mail relay: host name or address"),
        ChannelSetting.optional("port", "Its port: 587 (STARTTLS) or 465 (TLS)", "587"),
        ChannelSetting.optional("security", "starttls or tls (implicit, port 465)", "starttls"),
        ChannelSetting.required(
            "caCertificate", "The CA certificate(s) that signed the relay's, in PEM"),
        ChannelSetting.required("from", "The sender address, e.g. bulwark@site.example"),
        ChannelSetting.required("to", "Recipients, separated by commas"),
        ChannelSetting.optional(
            "user", "The user for AUTH PLAIN; its password is the channel's credential", ""),
        ChannelSetting.optional("subjectPrefix", "Put before every subject", "[Bulwark]"),
        ChannelSetting.optional(
            "maxPerMail", "At most this many notifications per mail (1-200)", "50"));
  }

  @Override
  public ChannelSender open(ChannelConfig config) {
    String security = config.setting("security", "starttls").toLowerCase(Locale.ROOT);
    if (!security.equals("starttls") && !security.equals("tls")) {
      throw new IllegalArgumentException(
          "the channel '"
              + config.name()
              + "' setting 'security' must be starttls or tls: Bulwark sends mail only encrypted");
    }
    String from = address(config, "from", config.required("from"));
    List<String> to = new ArrayList<>();
    for (String r : config.required("to").split(",")) {
      if (!r.isBlank()) {
        to.add(address(config, "to", r.trim()));
      }
    }
    String user = config.setting("user", "");
    if (!user.isEmpty() && config.credential() == null) {
      throw new IllegalArgumentException(
          "the channel '" + config.name() + "' names a user but has no credential (its password)");
    }
    ClientTls tls =
        ClientTls.trusting(
            config.setting("caCertificate", null),
            "the channel '" + config.name() + "' setting 'caCertificate'");
    return new SmtpSender(
        new SmtpSender.Settings(
            config.name(),
            config.required("host"),
            config.number("port", security.equals("tls") ? 465 : 587, 1, 65535),
            security.equals("starttls"),
            from,
            List.copyOf(to),
            user,
            config.setting("subjectPrefix", "[Bulwark]"),
            config.number("maxPerMail", 50, 1, 200),
            config.appliance(),
            config.externalUrl()),
        tls,
        config.credentialCopy().orElse(null));
  }

  private static String address(ChannelConfig config, String key, String value) {
    if (!ADDRESS.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "the channel '"
              + config.name()
              + "' setting '"
              + key
              + "' holds '"
              + value
              + "', not a mail address (name@domain)");
    }
    return value;
  }
}
