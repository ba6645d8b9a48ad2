package io.bulwark.health.bmc.internal;

import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.Severity;
import io.bulwark.api.machine.MachineReadings;
import io.bulwark.api.machine.MachineService;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports machines whose inlet air (a temperature sensor named inlet, intake or ambient, as BMCs
 * name them) is hotter than the configured maximum or the sensor's own upper critical threshold,
 * whichever is lower. Warning: the room or the rack's airflow is at fault, not the machine, so the
 * action is for facilities; the GPUs throttle next (their own detectors report that).
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.bmc.inlet-temp",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = InletTemperatureDetectorConfig.class)
public final class InletTemperatureDetector extends MachineDetector {
  static final String KIND = "bmc-inlet-temp";
  private static final Pattern INLET = Pattern.compile("inlet|intake|ambient|front panel");

  private final MachineService machines;
  private final double maxCelsius;
  private final long maxAgeMillis;

  @Activate
  public InletTemperatureDetector(
      @Reference MachineService machines, InletTemperatureDetectorConfig config) {
    this(
        machines,
        config.inletMaxCelsius(),
        FreshReadings.maxAgeMillis(config.maxAgeSeconds(), "io.bulwark.health.bmc.inlet-temp"));
  }

  InletTemperatureDetector(MachineService machines, double maxCelsius, long maxAgeMillis) {
    super(machines, maxAgeMillis);
    if (!(maxCelsius >= 15 && maxCelsius <= 60)) {
      throw new IllegalArgumentException(
          "inletMaxCelsius of io.bulwark.health.bmc.inlet-temp must be between 15 and 60, got "
              + maxCelsius);
    }
    this.machines = machines;
    this.maxCelsius = maxCelsius;
    this.maxAgeMillis = maxAgeMillis;
  }

  /** Returns true if the sensor measures the air a machine takes in. */
  static boolean inlet(BmcSensor s) {
    return s.kind() == BmcSensor.Kind.TEMPERATURE
        && INLET.matcher(s.name().toLowerCase(Locale.ROOT)).find();
  }

  @Override
  public String name() {
    return KIND;
  }

  @Override
  Optional<Condition> judge(MachineReadings r, long nowMillis) {
    BmcSensor hottest = null;
    double limit = maxCelsius;
    for (BmcSensor s : r.sensors()) {
      if (!inlet(s) || !Double.isFinite(s.value())) {
        continue;
      }
      double own =
          Double.isFinite(s.upperCritical()) ? Math.min(maxCelsius, s.upperCritical()) : maxCelsius;
      if (s.value() > own && (hottest == null || s.value() - own > hottest.value() - limit)) {
        hottest = s;
        limit = own;
      }
    }
    if (hottest == null) {
      return Optional.empty();
    }
    Map<String, String> e = FreshReadings.evidence(r);
    FreshReadings.add(e, "inletSensor", hottest);
    e.put("threshold", "> " + FreshReadings.number(limit) + " Cel");
    return Optional.of(
        new Condition(
            KIND,
            r.findingNode(),
            -1,
            Severity.WARNING,
            "Inlet air of machine "
                + r.machine()
                + " is "
                + FreshReadings.describe(hottest)
                + ", over its "
                + FreshReadings.number(limit)
                + " Cel limit ("
                + hottest.name()
                + ")",
            e,
            "Ask facilities to check the cooling and airflow of rack/aisle of machine "
                + r.machine()
                + " (blocked tiles, failed CRAH, open blanking panels); its GPUs throttle next",
            1.0));
  }
}
