package io.bulwark.scheduler.kubernetes.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What Bulwark writes on a node it takes out of service, where {@code kubectl} shows it: the cordon
 * ({@code spec.unschedulable}), the taint {@code bulwark.io/unhealthy=<kind>:NoSchedule} and the
 * annotation {@code bulwark.io/reason} with the whole reason. The kind is the reason's first word,
 * made a valid label value. Each method changes the node object in place and says whether it
 * changed anything, so that a second drain or resume writes nothing. Used by {@link
 * KubernetesConnector}.
 */
final class DrainMark {
  /** The taint's key. */
  static final String TAINT_KEY = "bulwark.io/unhealthy";

  /** The annotation holding the drain's reason. */
  static final String REASON_ANNOTATION = "bulwark.io/reason";

  static final String NO_SCHEDULE = "NoSchedule";

  private static final int LABEL_VALUE_MAX = 63;

  private DrainMark() {}

  /**
   * Returns the taint value for a reason: its first word, with characters a label value may not
   * hold replaced by {@code -}, trimmed to start and end with a letter or digit and to 63
   * characters; {@code unspecified} if nothing is left.
   */
  static String kind(String reason) {
    String word = reason == null ? "" : reason.strip().split("\\s+", 2)[0];
    StringBuilder value = new StringBuilder(word.length());
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      boolean allowed =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_'
              || c == '.';
      value.append(allowed ? c : '-');
    }
    String kind = trim(value.toString());
    if (kind.length() > LABEL_VALUE_MAX) {
      kind = trim(kind.substring(0, LABEL_VALUE_MAX));
    }
    return kind.isEmpty() ? "unspecified" : kind;
  }

  /** Cordons the node, sets the taint and the reason; returns true if the node changed. */
  static boolean mark(Node node, String reason) {
    boolean changed = false;
    NodeSpec spec = spec(node);
    if (!Boolean.TRUE.equals(spec.getUnschedulable())) {
      spec.setUnschedulable(true);
      changed = true;
    }
    String kind = kind(reason);
    List<Taint> taints = new ArrayList<>(spec.getTaints() == null ? List.of() : spec.getTaints());
    boolean present = false;
    for (int i = 0; i < taints.size(); i++) {
      Taint taint = taints.get(i);
      if (TAINT_KEY.equals(taint.getKey()) && NO_SCHEDULE.equals(taint.getEffect())) {
        if (present || !kind.equals(taint.getValue())) {
          // A second copy, or the kind of an earlier drain: keep one taint with this drain's kind.
          taints.remove(i--);
          changed = true;
        } else {
          present = true;
        }
      }
    }
    if (!present) {
      taints.add(
          new TaintBuilder().withKey(TAINT_KEY).withValue(kind).withEffect(NO_SCHEDULE).build());
      changed = true;
    }
    spec.setTaints(taints);
    String text = reason == null ? "" : reason.strip();
    Map<String, String> annotations = annotations(node);
    if (!text.equals(annotations.get(REASON_ANNOTATION))) {
      annotations.put(REASON_ANNOTATION, text);
      changed = true;
    }
    return changed;
  }

  /** Uncordons the node and removes the taint and the reason; returns true if the node changed. */
  static boolean clear(Node node) {
    boolean changed = false;
    NodeSpec spec = spec(node);
    if (Boolean.TRUE.equals(spec.getUnschedulable())) {
      spec.setUnschedulable(false);
      changed = true;
    }
    if (spec.getTaints() != null) {
      List<Taint> kept = new ArrayList<>(spec.getTaints());
      if (kept.removeIf(taint -> TAINT_KEY.equals(taint.getKey()))) {
        spec.setTaints(kept);
        changed = true;
      }
    }
    Map<String, String> annotations =
        node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
    if (annotations != null && annotations.containsKey(REASON_ANNOTATION)) {
      Map<String, String> kept = new HashMap<>(annotations);
      kept.remove(REASON_ANNOTATION);
      node.getMetadata().setAnnotations(kept);
      changed = true;
    }
    return changed;
  }

  /** Returns the reason recorded by the last drain, or "". */
  static String reason(Node node) {
    Map<String, String> annotations =
        node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
    return annotations == null
        ? ""
        : Objects.requireNonNullElse(annotations.get(REASON_ANNOTATION), "");
  }

  private static NodeSpec spec(Node node) {
    if (node.getSpec() == null) {
      node.setSpec(new NodeSpec());
    }
    return node.getSpec();
  }

  private static Map<String, String> annotations(Node node) {
    if (node.getMetadata() == null) {
      node.setMetadata(new ObjectMeta());
    }
    Map<String, String> annotations = node.getMetadata().getAnnotations();
    Map<String, String> copy = annotations == null ? new HashMap<>() : new HashMap<>(annotations);
    node.getMetadata().setAnnotations(copy);
    return copy;
  }

  private static String trim(String value) {
    int start = 0;
    int end = value.length();
    while (start < end && !Character.isLetterOrDigit(value.charAt(start))) {
      start++;
    }
    while (end > start && !Character.isLetterOrDigit(value.charAt(end - 1))) {
      end--;
    }
    return value.substring(start, end);
  }
}
