package io.bulwark.health.bmc.internal;

import io.bulwark.api.bmc.BmcLogEntry;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.Severity;
import io.bulwark.api.machine.MachineReadings;
import io.bulwark.api.machine.MachineService;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports machines whose BMC logged a hardware failure (see {@link SelClass}: uncorrectable memory
 * ECC, fatal PCIe, CPU machine check, power unit failure) within the window. Critical: each of
 * these crashes or corrupts the jobs on the machine, so its GPUs count as not delivering until the
 * entry leaves the window or the log is cleared after the repair. The newest such entry is the
 * evidence, with the number of failure entries in the window.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.bmc.sel-hardware",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = SelHardwareDetectorConfig.class)
public final class SelHardwareDetector extends MachineDetector {
  static final String KIND = "bmc-sel-hardware";

  private final MachineService machines;
  private final long windowMillis;
  private final long maxAgeMillis;

  @Activate
  public SelHardwareDetector(@Reference MachineService machines, SelHardwareDetectorConfig config) {
    this(
        machines,
        hours(config.windowHours()),
        FreshReadings.maxAgeMillis(config.maxAgeSeconds(), "io.bulwark.health.bmc.sel-hardware"));
  }

  SelHardwareDetector(MachineService machines, long windowMillis, long maxAgeMillis) {
    super(machines, maxAgeMillis);
    this.machines = machines;
    this.windowMillis = windowMillis;
    this.maxAgeMillis = maxAgeMillis;
  }

  private static long hours(int h) {
    if (h < 1 || h > 720) {
      throw new IllegalArgumentException(
          "windowHours of io.bulwark.health.bmc.sel-hardware must be between 1 and 720, got " + h);
    }
    return h * 3_600_000L;
  }

  @Override
  public String name() {
    return KIND;
  }

  @Override
  Optional<Condition> judge(MachineReadings r, long nowMillis) {
    long from = nowMillis - windowMillis;
    BmcLogEntry newest = null;
    SelClass newestClass = null;
    int count = 0;
    for (BmcLogEntry e : r.events()) {
      if (e.created() != null && e.created().toEpochMilli() < from) {
        continue;
      }
      Optional<SelClass> c = SelClass.of(e);
      if (c.isEmpty()) {
        continue;
      }
      count++;
      if (newest == null || later(e, newest)) {
        newest = e;
        newestClass = c.get();
      }
    }
    if (newest == null) {
      return Optional.empty();
    }
    Map<String, String> evidence = FreshReadings.evidence(r);
    evidence.put("class", newestClass.words());
    evidence.put("selEntry", newest.id());
    evidence.put(
        "selCreated", newest.created() == null ? "not dated" : newest.created().toString());
    evidence.put("selSeverity", newest.severity());
    evidence.put("selSensorType", newest.sensorType());
    evidence.put("selMessage", newest.message());
    evidence.put("failureEntries", Integer.toString(count));
    evidence.put("window", windowMillis / 3_600_000L + " h");
    return Optional.of(
        new Condition(
            KIND,
            r.findingNode(),
            -1,
            Severity.CRITICAL,
            "The BMC of machine "
                + r.machine()
                + " logged "
                + (newestClass.words().matches("^[aeiou].*") ? "an " : "a ")
                + newestClass.words()
                + ": \""
                + newest.message()
                + "\""
                + (count > 1 ? " (" + count + " failure entries)" : ""),
            evidence,
            newestClass.action()
                + " (machine "
                + r.machine()
                + ", event log entry "
                + newest.id()
                + "); clear the event log after the repair",
            1.0));
  }

  private static boolean later(BmcLogEntry a, BmcLogEntry b) {
    if (a.created() == null || b.created() == null) {
      return b.created() == null && a.created() != null;
    }
    return a.created().isAfter(b.created());
  }
}
