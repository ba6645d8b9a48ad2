package io.bulwark.api.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A BMC endpoint's system: absent ("") with the five-part constructor, named by a Redfish Id or
 * path, shown in the name messages give a BMC only when named, kept by {@code pinned} and {@code
 * withCredentialRef}, and refused where it is no short safe name.
 */
class BmcEndpointTest {

  @Test
  void theFivePartEndpointNamesNoSystemAndReadsAsBefore() {
    BmcEndpoint e = new BmcEndpoint(BmcProtocol.REDFISH, "10.2.0.17", 443, "ref", "");
    assertThat(e.system()).isEmpty();
    assertThat(e).isEqualTo(new BmcEndpoint(BmcProtocol.REDFISH, "10.2.0.17", 443, "ref", "", ""));
    assertThat(e)
        .isEqualTo(new BmcEndpoint(BmcProtocol.REDFISH, "10.2.0.17", 443, "ref", "", null));
    assertThat(e.toString()).isEqualTo("redfish 10.2.0.17:443");
  }

  @Test
  void aNamedSystemIsShownComparedAndKept() {
    BmcEndpoint e = new BmcEndpoint(BmcProtocol.REDFISH, "10.2.0.17", 443, "ref", "", "3");
    assertThat(e.toString()).isEqualTo("redfish 10.2.0.17:443 system 3");
    assertThat(e).isNotEqualTo(new BmcEndpoint(BmcProtocol.REDFISH, "10.2.0.17", 443, "ref", ""));
    assertThat(e.pinned("a".repeat(64)).system()).isEqualTo("3");
    assertThat(e.withCredentialRef("other").system()).isEqualTo("3");
    assertThat(e.withCredentialRef("other").credentialRef()).isEqualTo("other");
    assertThat(
            new BmcEndpoint(BmcProtocol.REDFISH, "h", 443, "", "", "/redfish/v1/Systems/Blade_3")
                .system())
        .isEqualTo("/redfish/v1/Systems/Blade_3");
  }

  @Test
  void aSystemThatIsNoShortSafeNameIsRefused() {
    for (String bad : new String[] {"a b", "3;x", "../x", "/redfish/v1/../x", "x".repeat(129)}) {
      assertThatThrownBy(() -> new BmcEndpoint(BmcProtocol.REDFISH, "h", 443, "", "", bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not a BMC system");
    }
  }
}
