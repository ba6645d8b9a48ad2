package io.bulwark.scheduler.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import org.junit.jupiter.api.Test;

/**
 * The taint value a drain's reason becomes (it must be a valid label value or the API server
 * refuses the node update), and the marks a drain and a resume change on a node object.
 */
class DrainMarkTest {
  private static final java.util.regex.Pattern LABEL_VALUE =
      java.util.regex.Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

  @Test
  void theKindIsTheReasonsFirstWordMadeAValidLabelValue() {
    assertThat(DrainMark.kind("xid-79: GPU has fallen off the bus")).isEqualTo("xid-79");
    assertThat(DrainMark.kind("  thermal  throttling")).isEqualTo("thermal");
    assertThat(DrainMark.kind("NVLink/down")).isEqualTo("NVLink-down");
    assertThat(DrainMark.kind("«ecc»")).isEqualTo("ecc");
    assertThat(DrainMark.kind("--")).isEqualTo("unspecified");
    assertThat(DrainMark.kind("")).isEqualTo("unspecified");
    assertThat(DrainMark.kind(null)).isEqualTo("unspecified");
  }

  @Test
  void aLongFirstWordIsCutTo63CharactersEndingInALetterOrDigit() {
    String word = "a".repeat(62) + "-b" + "c".repeat(20);

    String kind = DrainMark.kind(word + " more");

    assertThat(kind).hasSizeLessThanOrEqualTo(63).isEqualTo("a".repeat(62));
    assertThat(LABEL_VALUE.matcher(kind).matches()).isTrue();
  }

  @Test
  void everyKindIsAValidLabelValue() {
    for (String reason :
        new String[] {
          "x", "ümlaut-ärger", "a:b:c", "_leading", "trailing.", "9" + "z".repeat(80)
        }) {
      assertThat(LABEL_VALUE.matcher(DrainMark.kind(reason)).matches())
          .as("kind of %s", reason)
          .isTrue();
    }
  }

  @Test
  void markThenClearRestoresTheNodeAndASecondOfEitherChangesNothing() {
    Node node =
        new NodeBuilder()
            .withNewMetadata()
            .withName("gpu-a01")
            .addToAnnotations("team", "ml")
            .endMetadata()
            .withNewSpec()
            .addNewTaint()
            .withKey("nvidia.com/gpu")
            .withEffect("NoSchedule")
            .endTaint()
            .endSpec()
            .build();

    assertThat(DrainMark.mark(node, "xid-79 on GPU 2")).isTrue();
    assertThat(DrainMark.mark(node, "xid-79 on GPU 2")).isFalse();
    assertThat(node.getSpec().getTaints())
        .extracting(Taint::getKey)
        .containsExactly("nvidia.com/gpu", DrainMark.TAINT_KEY);

    assertThat(DrainMark.clear(node)).isTrue();
    assertThat(DrainMark.clear(node)).isFalse();
    assertThat(node.getSpec().getUnschedulable()).isFalse();
    assertThat(node.getSpec().getTaints())
        .extracting(Taint::getKey)
        .containsExactly("nvidia.com/gpu");
    assertThat(node.getMetadata().getAnnotations()).containsOnlyKeys("team");
  }

  @Test
  void duplicateTaintsLeftByAnotherWriterAreFoldedIntoOne() {
    Node node =
        new NodeBuilder()
            .withNewMetadata()
            .withName("gpu-a02")
            .endMetadata()
            .withNewSpec()
            .withUnschedulable(true)
            .addNewTaint()
            .withKey(DrainMark.TAINT_KEY)
            .withValue("xid-79")
            .withEffect("NoSchedule")
            .endTaint()
            .addNewTaint()
            .withKey(DrainMark.TAINT_KEY)
            .withValue("xid-79")
            .withEffect("NoSchedule")
            .endTaint()
            .endSpec()
            .build();

    assertThat(DrainMark.mark(node, "xid-79")).isTrue();

    assertThat(node.getSpec().getTaints()).hasSize(1);
  }
}
