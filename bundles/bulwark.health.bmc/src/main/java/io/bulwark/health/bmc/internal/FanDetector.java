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
 * Reports machines with a failed fan: the BMC rates the fan Critical, or its speed is below its
 * lower critical threshold. Warning: GPU servers have spare fans, but the next failure throttles
 * the GPUs; replace it in the next maintenance window. One finding per machine, naming every failed
 * fan.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.bmc.fan",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = BmcDetectorConfig.class)
public final class FanDetector extends MachineDetector {
  static final String KIND = "bmc-fan";

  @Activate
  public FanDetector(@Reference MachineService machines, BmcDetectorConfig config) {
    this(machines, FreshReadings.maxAgeMillis(config.maxAgeSeconds(), "io.bulwark.health.bmc.fan"));
  }

  FanDetector(MachineService machines, long maxAgeMillis) {
    super(machines, maxAgeMillis);
  }

  @Override
  public String name() {
    return KIND;
  }

  @Override
  Optional<Condition> judge(MachineReadings r, long nowMillis) {
    List<BmcSensor> failed = new ArrayList<>();
    int fans = 0;
    for (BmcSensor s : r.sensors()) {
      if (s.kind() != BmcSensor.Kind.FAN) {
        continue;
      }
      fans++;
      boolean below =
          Double.isFinite(s.value())
              && Double.isFinite(s.lowerCritical())
              && s.value() < s.lowerCritical();
      if (FreshReadings.critical(s) || below) {
        failed.add(s);
      }
    }
    if (failed.isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> e = FreshReadings.evidence(r);
    e.put("fans", Integer.toString(fans));
    e.put("failedFans", Integer.toString(failed.size()));
    for (int i = 0; i < failed.size(); i++) {
      FreshReadings.add(e, i == 0 ? "fan" : "fan" + (i + 1), failed.get(i));
    }
    BmcSensor first = failed.get(0);
    String why =
        FreshReadings.critical(first)
            ? "the BMC rates it Critical"
            : "it turns at "
                + FreshReadings.describe(first)
                + ", below its lower threshold of "
                + FreshReadings.number(first.lowerCritical());
    String names = String.join(", ", failed.stream().map(BmcSensor::name).toList());
    return Optional.of(
        new Condition(
            KIND,
            r.findingNode(),
            -1,
            Severity.WARNING,
            (names.toLowerCase(java.util.Locale.ROOT).startsWith("fan")
                    ? names
                    : (failed.size() == 1 ? "Fan " : "Fans ") + names)
                + " failed"
                + " on machine "
                + r.machine()
                + " ("
                + why
                + ")",
            e,
            "Replace "
                + names
                + " of machine "
                + r.machine()
                + " in the next maintenance window; until then its GPUs run with less cooling"
                + " margin (watch for thermal throttling)",
            1.0));
  }
}
