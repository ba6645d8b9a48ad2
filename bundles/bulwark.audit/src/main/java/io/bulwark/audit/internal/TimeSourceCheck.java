package io.bulwark.audit.internal;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.ComplianceCheck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * {@code time-source}: the clock the audit records are stamped with is kept synchronised to a time
 * server, as chrony (the image's time daemon) reports it ({@code chronyc -c tracking}: its
 * reference, stratum, offset, update interval and leap status), or else as systemd reports it
 * ({@code timedatectl show}). Neither answering, or no source selected, is Open.
 */
@Component(service = ComplianceCheck.class)
public final class TimeSourceCheck implements ComplianceCheck {
  static final String ID = "time-source";
  static final int SECONDS = 5;

  /** Runs a command and returns its standard output, or null if it cannot run or fails. */
  interface Commands {
    String run(List<String> command);
  }

  private final Commands commands;

  @Activate
  public TimeSourceCheck() {
    this(TimeSourceCheck::exec);
  }

  TimeSourceCheck(Commands commands) {
    this.commands = commands;
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String title() {
    return "The appliance's clock is synchronised to a time server";
  }

  @Override
  public CheckResult run(Instant now) {
    Map<String, String> evidence = new LinkedHashMap<>();
    String chrony = commands.run(List.of("chronyc", "-n", "-c", "tracking"));
    if (chrony != null && !chrony.isBlank()) {
      String[] f = chrony.strip().split(",", -1);
      if (f.length >= 14) {
        evidence.put("daemon", "chrony");
        evidence.put("reference", f[0] + (f[1].isEmpty() ? "" : " (" + f[1] + ")"));
        evidence.put("stratum", f[2]);
        evidence.put("systemTimeOffsetSeconds", f[4]);
        evidence.put("updateIntervalSeconds", f[12]);
        evidence.put("leapStatus", f[13]);
        boolean synced = f[13].equalsIgnoreCase("Normal") && !f[0].equals("00000000");
        double interval = parse(f[12]);
        if (!synced) {
          return CheckResult.open(
              ID,
              "chrony runs but is not synchronised (leap status " + f[13] + "): check its servers",
              evidence,
              now);
        }
        if (interval > 86_400) {
          return CheckResult.open(
              ID,
              "chrony compares the clock less often than every 24 hours (every "
                  + f[12]
                  + " s): set maxpoll 16 or less",
              evidence,
              now);
        }
        return CheckResult.met(
            ID,
            "chrony keeps the clock synchronised to " + evidence.get("reference"),
            evidence,
            now);
      }
    }
    String systemd =
        commands.run(List.of("timedatectl", "show", "-p", "NTP", "-p", "NTPSynchronized"));
    if (systemd != null && systemd.contains("NTPSynchronized=")) {
      evidence.put("daemon", "systemd");
      evidence.put("timedatectl", systemd.strip().replace('\n', ' '));
      return systemd.contains("NTPSynchronized=yes")
          ? CheckResult.met(ID, "systemd reports the clock synchronised", evidence, now)
          : CheckResult.open(
              ID,
              "systemd reports the clock not synchronised: configure chrony with the site's time"
                  + " servers",
              evidence,
              now);
    }
    evidence.put("daemon", "none answered");
    evidence.put("chronyc", chrony == null ? "did not answer" : "answered nothing usable");
    evidence.put("timedatectl", systemd == null ? "did not answer" : systemd.strip());
    return CheckResult.open(
        ID,
        "no time synchronisation answers on this machine (chrony, systemd): configure chrony with"
            + " the site's authoritative time servers",
        evidence,
        now);
  }

  private static double parse(String s) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return Double.MAX_VALUE;
    }
  }

  private static String exec(List<String> command) {
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .start();
      if (!p.waitFor(SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.exitValue() == 0 ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
