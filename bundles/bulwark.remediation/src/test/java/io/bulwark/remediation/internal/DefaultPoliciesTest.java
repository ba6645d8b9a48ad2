package io.bulwark.remediation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The default policies' XIDs against the XID detector's catalogue (NVIDIA's buckets, in
 * bulwark.health.dcgm): the reboot policy takes exactly the restart buckets, the reset policy
 * exactly the reset bucket and the reset workflows, so that every XID the detector calls critical
 * has a policy and none it does not call critical is reset.
 */
class DefaultPoliciesTest {
  private static final Path CATALOGUE =
      Path.of(
          "../bulwark.health.dcgm/src/main/resources/io/bulwark/health/dcgm/internal/xid-catalog.csv");

  @Test
  void theXidPoliciesTakeTheCodesOfNvidiasRestartAndResetBuckets() throws Exception {
    Set<Integer> restart = codes("RESTART_BM", "RESTART_VM");
    Set<Integer> reset =
        codes("RESET_GPU", "WORKFLOW_NVLINK5_ERR", "WORKFLOW_NVLINK_ERR", "WORKFLOW_XID_48");
    assertThat(restart).isNotEmpty();
    assertThat(new TreeSet<>(DefaultPolicies.REBOOT_XIDS)).isEqualTo(restart);
    assertThat(new TreeSet<>(DefaultPolicies.RESET_XIDS)).isEqualTo(reset);
  }

  private static Set<Integer> codes(String... buckets) throws Exception {
    Set<Integer> out = new TreeSet<>();
    List<String> wanted = List.of(buckets);
    for (String line : Files.readAllLines(CATALOGUE)) {
      String[] f = line.split(",", -1);
      if (line.startsWith("#") || f.length != 4 || f[0].equals("code")) {
        continue;
      }
      if (wanted.contains(f[2])) {
        out.add(Integer.parseInt(f[0]));
      }
    }
    return out;
  }
}
