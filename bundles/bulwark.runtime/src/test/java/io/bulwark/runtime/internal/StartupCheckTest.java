package io.bulwark.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

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
}
