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
 * Reports machines with a power supply the BMC rates Critical (failed) or Warning (degraded, e.g.
 * lost input). The summary says how many supplies still deliver: with one left the machine has no
 * redundancy and the next failure stops it mid-job. Warning while the machine runs (its GPUs still
 * deliver); replace the supply soon.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.bmc.psu",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = BmcDetectorConfig.class)
public final class PowerSupplyDetector extends MachineDetector {
  static final String KIND = "bmc-psu";

  @Activate
  public PowerSupplyDetector(@Reference MachineService machines, BmcDetectorConfig config) {
    this(machines, FreshReadings.maxAgeMillis(config.maxAgeSeconds(), "io.bulwark.health.bmc.psu"));
  }

  PowerSupplyDetector(MachineService machines, long maxAgeMillis) {
    super(machines, maxAgeMillis);
  }

  @Override
  public String name() {
    return KIND;
  }

  @Override
  Optional<Condition> judge(MachineReadings r, long nowMillis) {
    List<BmcSensor> bad = new ArrayList<>();
    int supplies = 0;
    for (BmcSensor s : r.sensors()) {
      if (s.kind() != BmcSensor.Kind.POWER_SUPPLY) {
        continue;
      }
      supplies++;
      if (FreshReadings.critical(s) || FreshReadings.WARNING.equalsIgnoreCase(s.health())) {
        bad.add(s);
      }
    }
    if (bad.isEmpty()) {
      return Optional.empty();
    }
    int left = supplies - bad.size();
    Map<String, String> e = FreshReadings.evidence(r);
    e.put("powerSupplies", Integer.toString(supplies));
    e.put("suppliesDelivering", Integer.toString(left));
    for (int i = 0; i < bad.size(); i++) {
      FreshReadings.add(e, i == 0 ? "powerSupply" : "powerSupply" + (i + 1), bad.get(i));
    }
    String names = String.join(", ", bad.stream().map(BmcSensor::name).toList());
    String state = bad.stream().anyMatch(FreshReadings::critical) ? "failed" : "degraded";
    String redundancy =
        left <= 1
            ? (left == 1 ? "one supply left: no redundancy" : "no supply reported healthy")
            : left + " of " + supplies + " supplies left";
    return Optional.of(
        new Condition(
            KIND,
            r.findingNode(),
            -1,
            Severity.WARNING,
            "Power supply "
                + names
                + " of machine "
                + r.machine()
                + " "
                + state
                + " ("
                + redundancy
                + ")",
            e,
            "Check the input power of "
                + names
                + " on machine "
                + r.machine()
                + " and replace the supply"
                + (left <= 1
                    ? " soon: the next failure powers the machine off mid-job; drain it first"
                        + " if the replacement needs it down"
                    : " in the next maintenance window"),
            1.0));
  }
}
