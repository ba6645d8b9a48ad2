package io.bulwark.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TypedConfigTest {
  @interface ScrapeConfig {
    int intervalSeconds() default 15;

    String label() default "rack";

    String target();
  }

  @Test
  void overridesWinAndTheRestTakeTheAnnotationDefaults() {
    ScrapeConfig config =
        TypedConfig.of(ScrapeConfig.class, Map.of("intervalSeconds", 5, "target", "10.0.0.1"));

    assertThat(config.intervalSeconds()).isEqualTo(5);
    assertThat(config.label()).isEqualTo("rack");
    assertThat(config.target()).isEqualTo("10.0.0.1");
    assertThat(config.annotationType()).isEqualTo(ScrapeConfig.class);
  }

  @Test
  void aPropertyWithoutDefaultOrValueIsRefusedByName() {
    ScrapeConfig config = TypedConfig.defaults(ScrapeConfig.class);

    assertThat(config.intervalSeconds()).isEqualTo(15);
    assertThatThrownBy(config::target)
        .isInstanceOf(RuntimeException.class)
        .hasMessageContaining("target");
  }

  @Test
  void valuesAreConvertedAsConfigurationAdminDeliversThem() {
    ScrapeConfig config = TypedConfig.of(ScrapeConfig.class, Map.of("intervalSeconds", "30"));

    assertThat(config.intervalSeconds()).isEqualTo(30);
    assertThatThrownBy(
            () ->
                TypedConfig.of(ScrapeConfig.class, Map.of("intervalSeconds", "often"))
                    .intervalSeconds())
        .isInstanceOf(RuntimeException.class);
  }
}
