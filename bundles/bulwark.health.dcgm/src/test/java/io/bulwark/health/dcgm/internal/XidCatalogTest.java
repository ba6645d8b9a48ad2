package io.bulwark.health.dcgm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The XID catalogue file against NVIDIA's mapping it was taken from: every code from 1 to 162 once,
 * the buckets with NVIDIA's counts, each bucket's codes as NVIDIA lists them where an operator
 * would notice a difference, and a line the parser cannot read named with its number.
 */
class XidCatalogTest {

  @Test
  void theCatalogueHoldsEveryCodeNvidiaListsOnceWithItsSource() throws Exception {
    assertThat(XidCatalog.entries().stream().map(XidCatalog.Entry::code))
        .containsExactlyElementsOf(IntStream.rangeClosed(1, 162).boxed().toList());
    assertThat(XidCatalog.highest()).isEqualTo(162);
    String file =
        new String(
            XidCatalog.class.getResourceAsStream(XidCatalog.RESOURCE).readAllBytes(),
            java.nio.charset.StandardCharsets.UTF_8);
    assertThat(file)
        .contains("NVIDIA/NVSentinel")
        .contains("xiderrorsmapping.csv")
        .contains("6f8b0fcfa8e502bdda78fabf96facef729a9285b");
  }

  @Test
  void theBucketsHoldNvidiasCodes() {
    Map<XidBucket, Set<Integer>> byBucket = new TreeMap<>();
    for (XidCatalog.Entry e : XidCatalog.entries()) {
      byBucket.computeIfAbsent(e.bucket(), b -> new java.util.TreeSet<>()).add(e.code());
    }
    Map<XidBucket, Integer> counts =
        byBucket.entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, x -> x.getValue().size()));
    assertThat(counts)
        .containsEntry(XidBucket.UNEXPECTED_ERR_REPORT_ISSUE, 63)
        .containsEntry(XidBucket.RESTART_APP, 48)
        .containsEntry(XidBucket.IGNORE, 19)
        .containsEntry(XidBucket.RESET_GPU, 15)
        .containsEntry(XidBucket.WORKFLOW_NVLINK5_ERR, 7)
        .containsEntry(XidBucket.RESTART_BM, 2)
        .containsEntry(XidBucket.RESTART_VM, 1);
    assertThat(byBucket.get(XidBucket.RESET_GPU))
        .containsExactly(46, 62, 64, 95, 109, 110, 119, 120, 136, 140, 143, 155, 156, 158, 162);
    assertThat(byBucket.get(XidBucket.RESTART_BM)).containsExactly(79, 160);
    assertThat(byBucket.get(XidBucket.RESTART_VM)).containsExactly(151);
    assertThat(byBucket.get(XidBucket.WORKFLOW_NVLINK5_ERR))
        .containsExactly(144, 145, 146, 147, 148, 149, 150);
    assertThat(byBucket.get(XidBucket.WORKFLOW_XID_48)).containsExactly(48);
    assertThat(byBucket.get(XidBucket.WORKFLOW_NVLINK_ERR)).containsExactly(74);
    assertThat(byBucket.get(XidBucket.IGNORE)).contains(38, 43, 44, 63, 92);
    assertThat(byBucket.get(XidBucket.RESTART_APP)).contains(13, 31, 68, 69, 94);
    assertThat(XidCatalog.entry(61).orElseThrow().bucket())
        .isEqualTo(XidBucket.UNEXPECTED_ERR_REPORT_ISSUE);
    assertThat(XidCatalog.entry(154).orElseThrow().bucket()).isEqualTo(XidBucket.FOLLOW_OTHER_XID);
    // 27 codes for which NVIDIA resets the GPU or restarts the machine, directly or by workflow.
    long critical =
        XidCatalog.entries().stream()
            .filter(
                e ->
                    e.bucket().resolution() == XidResolution.RESET_GPU
                        || e.bucket().resolution() == XidResolution.REBOOT_NODE)
            .count();
    assertThat(critical).isEqualTo(27);
    assertThat(XidCatalog.entries())
        .filteredOn(
            e -> e.bucket().resolution().severity() == io.bulwark.api.health.Severity.CRITICAL)
        .allMatch(XidCatalog.Entry::fatal);
  }

  @Test
  void aCodeWithoutWordsOfBulwarksIsNamedByItsMnemonic() {
    assertThat(XidCatalog.meaning(79)).isEqualTo("GPU has fallen off the bus");
    assertThat(XidCatalog.meaning(1))
        .isEqualTo("robust channel fifo error fifo method (ROBUST_CHANNEL_FIFO_ERROR_FIFO_METHOD)");
    assertThat(XidCatalog.meaning(162)).isEqualTo("listed by NVIDIA without a name");
    assertThat(XidCatalog.meaning(999)).contains("not in NVIDIA's XID catalogue");
  }

  @Test
  void aLineTheParserCannotReadIsNamedWithItsNumber() {
    assertThatThrownBy(
            () -> parse("# c\ncode,mnemonic,bucket,fatal\n1,A,RESET_GPU,FATAL\n2,B,NOPE,FATAL\n"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("line 4")
        .hasMessageContaining("NOPE");
    assertThatThrownBy(() -> parse("code,mnemonic,bucket,fatal\n1,A,RESET_GPU\n"))
        .hasMessageContaining("line 2")
        .hasMessageContaining("expected 4 fields");
    assertThatThrownBy(
            () -> parse("code,mnemonic,bucket,fatal\n1,A,RESET_GPU,FATAL\n1,B,IGNORE,NONFATAL\n"))
        .hasMessageContaining("listed twice");
    assertThatThrownBy(() -> parse("1,A,RESET_GPU,FATAL\n")).hasMessageContaining("header");
    assertThatThrownBy(() -> parse("code,mnemonic,bucket,fatal\n1,A,RESET_GPU,MAYBE\n"))
        .hasMessageContaining("FATAL or NONFATAL");
  }

  private static Map<Integer, XidCatalog.Entry> parse(String text) throws Exception {
    return XidCatalog.parse(new BufferedReader(new StringReader(text)));
  }
}
