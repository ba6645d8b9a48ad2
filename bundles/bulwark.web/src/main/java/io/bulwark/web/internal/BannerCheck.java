package io.bulwark.web.internal;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.ComplianceCheck;
import java.time.Instant;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/**
 * {@code banner-present}: the notice shown before login (the admin plane's {@code banner}) is the
 * Standard Mandatory DoD Notice and Consent Banner, recognised by its opening sentence (DoDI
 * 8500.01, the text the STIG quotes). The appliance's default is a shorter generic notice, so on a
 * DoD site this stays Open until an admin sets the DoD text.
 */
@Component(
    service = ComplianceCheck.class,
    configurationPid = WebServer.PID,
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
public final class BannerCheck implements ComplianceCheck {
  static final String ID = "banner-present";

  /** The opening sentence of the Standard Mandatory DoD Notice and Consent Banner. */
  static final String DOD_OPENING =
      "You are accessing a U.S. Government (USG) Information System (IS) that is provided for"
          + " USG-authorized use only.";

  private final String banner;

  @Activate
  public BannerCheck(WebConfig config) {
    this.banner = config.banner() == null ? "" : config.banner().strip();
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String title() {
    return "The Standard Mandatory DoD Notice and Consent Banner is shown before login";
  }

  @Override
  public CheckResult run(Instant now) {
    String normalised = banner.replaceAll("\\s+", " ");
    Map<String, String> evidence =
        Map.of(
            "setting",
            WebServer.PID + " banner",
            "bannerCharacters",
            Integer.toString(banner.length()),
            "bannerStart",
            normalised.length() > 120 ? normalised.substring(0, 120) + "…" : normalised);
    if (banner.isEmpty()) {
      return CheckResult.open(
          ID, "no banner is shown before login: set banner of " + WebServer.PID, evidence, now);
    }
    if (!normalised.contains(DOD_OPENING)) {
      return CheckResult.open(
          ID,
          "the banner shown before login is not the Standard Mandatory DoD Notice and Consent"
              + " Banner: set banner of "
              + WebServer.PID
              + " to its text",
          evidence,
          now);
    }
    return CheckResult.met(
        ID,
        "the Standard Mandatory DoD Notice and Consent Banner is shown before login",
        evidence,
        now);
  }
}
