package io.bulwark.health.bmc.internal;

import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.Severity;
import io.bulwark.api.machine.MachineReadings;
import io.bulwark.api.machine.MachineService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports machines with a BMC sensor in Critical: rated Critical by the BMC, or read past one of
 * its critical thresholds (temperatures, voltages, power and other sensors; fans and power supplies
 * have their own detectors, and hot inlet air its own). Warning: the BMC's Critical is a threshold
 * crossing, and what it means depends on the sensor (a CPU over temperature, a voltage rail out of
 * range); the summary names it.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.bmc.sensor-critical",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = BmcDetectorConfig.class)
public final class CriticalSensorDetector extends MachineDetector {
  static final String KIND = "bmc-sensor-critical";

  @Activate
  public CriticalSensorDetector(@Reference MachineService machines, BmcDetectorConfig config) {
    this(
        machines,
        FreshReadings.maxAgeMillis(
            config.maxAgeSeconds(), "io.bulwark.health.bmc.sensor-critical"));
  }

  CriticalSensorDetector(MachineService machines, long maxAgeMillis) {
    super(machines, maxAgeMillis);
  }

  @Override
  public String name() {
    return KIND;
  }

  @Override
  Optional<Condition> judge(MachineReadings r, long nowMillis) {
    List<BmcSensor> critical = new ArrayList<>();
    for (BmcSensor s : r.sensors()) {
      if (s.kind() == BmcSensor.Kind.FAN
          || s.kind() == BmcSensor.Kind.POWER_SUPPLY
          || InletTemperatureDetector.inlet(s)) {
        continue;
      }
      if (FreshReadings.critical(s) || FreshReadings.pastThreshold(s)) {
        critical.add(s);
      }
    }
    if (critical.isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> e = FreshReadings.evidence(r);
    e.put("criticalSensors", Integer.toString(critical.size()));
    for (int i = 0; i < Math.min(critical.size(), 8); i++) {
      FreshReadings.add(e, i == 0 ? "sensor" : "sensor" + (i + 1), critical.get(i));
    }
    BmcSensor first = critical.get(0);
    String more = critical.size() > 1 ? " and " + (critical.size() - 1) + " more" : "";
    return Optional.of(
        new Condition(
            KIND,
            r.findingNode(),
            -1,
            Severity.WARNING,
            "BMC sensor "
                + first.name()
                + " of machine "
                + r.machine()
                + " is Critical at "
                + FreshReadings.describe(first)
                + more,
            e,
            "Look at sensor "
                + first.name()
                + " on the page of machine "
                + r.machine()
                + " and in its event log; drain the machine if the reading keeps rising",
            1.0));
  }
}
