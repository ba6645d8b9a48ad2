package io.bulwark.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;

class StartupCheckTest {
  @Test
  void namesEveryRequiredServiceThatIsNotRegistered() {
    Set<String> registered = Set.of("io.bulwark.api.security.CryptoModule");
    assertThat(
            StartupCheck.missing(
                List.of(
                    "io.bulwark.api.security.CryptoModule", "io.bulwark.api.security.SecretStore"),
                registered::contains))
        .containsExactly("io.bulwark.api.security.SecretStore");
    assertThat(StartupCheck.missing(List.of("a"), s -> true)).isEmpty();
  }

  @Test
  void anImmediateComponentStillActivatingIsNotUpAndADelayedOneIsAskedFor() {
    assertThat(StartupCheck.state(ComponentConfigurationDTO.ACTIVE, true))
        .isEqualTo(StartupCheck.ComponentState.ACTIVE);
    assertThat(StartupCheck.state(ComponentConfigurationDTO.SATISFIED, true))
        .as("registered, activation in progress: not asked for, so DS's lock is not waited on")
        .isEqualTo(StartupCheck.ComponentState.NOT_ACTIVE);
    assertThat(StartupCheck.state(ComponentConfigurationDTO.SATISFIED, false))
        .isEqualTo(StartupCheck.ComponentState.ON_REQUEST);
    assertThat(StartupCheck.state(ComponentConfigurationDTO.FAILED_ACTIVATION, true))
        .isEqualTo(StartupCheck.ComponentState.FAILED);
    assertThat(StartupCheck.state(ComponentConfigurationDTO.FAILED_ACTIVATION, false))
        .isEqualTo(StartupCheck.ComponentState.FAILED);
    assertThat(StartupCheck.state(ComponentConfigurationDTO.UNSATISFIED_REFERENCE, false))
        .isEqualTo(StartupCheck.ComponentState.NOT_ACTIVE);
  }
}
