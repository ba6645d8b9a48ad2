package io.bulwark.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Hashtable;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a setting change record says: each changed property from old to new, the framework's own
 * properties left out, and the values of secret-like properties never written.
 */
class SettingChangesTest {

  @Test
  void onlyChangedPropertiesAreListedFromOldToNew() {
    Map<String, String> before =
        SettingChanges.readable(props("httpsPort", 8443, "bindAddress", "127.0.0.1"));
    Map<String, String> after =
        SettingChanges.readable(
            props("httpsPort", 9443, "bindAddress", "127.0.0.1", "banner", "Authorized use only"));

    assertThat(SettingChanges.difference(before, after))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("httpsPort", "8443 -> 9443", "banner", "(unset) -> Authorized use only"));
  }

  @Test
  void frameworkPropertiesAreLeftOut() {
    assertThat(
            SettingChanges.readable(
                props("service.pid", "io.bulwark.web", ":configurator:version", "1", "port", 1)))
        .containsOnlyKeys("port");
  }

  @Test
  void secretLikeValuesAreNeverWrittenButTheirChangeShows() {
    Map<String, String> before =
        SettingChanges.readable(props("bmcPassword", "Old-Secret-Value-1"));
    Map<String, String> after = SettingChanges.readable(props("bmcPassword", "New-Secret-Value-2"));

    Map<String, String> details = SettingChanges.difference(before, after);

    assertThat(details).containsExactly(Map.entry("bmcPassword", "[redacted] -> [redacted]"));
    assertThat(details.toString()).doesNotContain("Secret-Value");
    assertThat(
            SettingChanges.difference(
                before, SettingChanges.readable(props("bmcPassword", "Old-Secret-Value-1"))))
        .isEmpty();
  }

  @Test
  void arraysAreShownElementByElement() {
    assertThat(
            SettingChanges.readable(
                props("pcrs", new int[] {0, 7}, "roles", new String[] {"a", "b"})))
        .containsEntry("pcrs", "[0, 7]")
        .containsEntry("roles", "[a, b]");
  }

  private static Hashtable<String, Object> props(Object... pairs) {
    Hashtable<String, Object> p = new Hashtable<>();
    for (int i = 0; i < pairs.length; i += 2) {
      p.put((String) pairs[i], pairs[i + 1]);
    }
    return p;
  }
}
