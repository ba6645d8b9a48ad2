package io.bulwark.runtime.internal;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Hashtable;
import java.util.Map;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Creates the configurations the environment turns on ({@link EnvironmentSettings#CREATED}) where
 * no configuration resource holds them, so that e.g. {@code BULWARK_SLURM_CONF} alone starts the
 * Slurm connector. A configuration that exists is left to {@link EnvironmentOverrides}.
 */
@Component(immediate = true)
public final class EnvironmentConfigurations {
  private static final System.Logger LOG =
      System.getLogger(EnvironmentConfigurations.class.getName());

  @Activate
  public EnvironmentConfigurations(@Reference ConfigurationAdmin cm) {
    EnvironmentSettings settings;
    try {
      settings = EnvironmentSettings.from(System.getenv());
    } catch (InvalidSettingException e) {
      return; // EnvironmentOverrides reports it and stops the appliance
    }
    for (String pid : EnvironmentSettings.CREATED) {
      Map<String, Object> props = settings.overridesFor(pid);
      if (props.isEmpty()) {
        continue;
      }
      try {
        Configuration[] existing = cm.listConfigurations("(service.pid=" + pid + ")");
        if (existing != null && existing.length > 0) {
          continue;
        }
        Configuration c = cm.getConfiguration(pid, "?");
        c.update(new Hashtable<>(props));
        LOG.log(Level.INFO, "Environment creates the configuration {0} {1}", pid, props.keySet());
      } catch (IOException | org.osgi.framework.InvalidSyntaxException e) {
        LOG.log(
            Level.ERROR,
            "The configuration " + pid + " could not be created: " + e.getMessage(),
            e);
      }
    }
  }
}
