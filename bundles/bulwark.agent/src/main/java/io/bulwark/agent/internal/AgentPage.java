package io.bulwark.agent.internal;

import io.bulwark.lib.exposition.ExpositionText;

/**
 * Renders a {@link NodeReading} as a dcgm-exporter page (Prometheus text format 0.0.4): first the
 * agent's own status ({@code bulwark_nvml_up}, and {@code bulwark_gpu_lost} for each lost GPU),
 * then for every field that at least one GPU reported a {@code # HELP} and a {@code # TYPE} line
 * and one line per GPU with dcgm-exporter's labels ({@code gpu}, {@code UUID}, {@code pci_bus_id},
 * {@code device}, {@code modelName}, {@code Hostname}, {@code DCGM_FI_DRIVER_VERSION}), integers as
 * integers and DCGM's floating-point fields with six decimals. Lost GPUs have no field lines.
 */
final class AgentPage {
  static final String UP = "bulwark_nvml_up";
  static final String GPU_LOST = "bulwark_gpu_lost";

  private AgentPage() {}

  /** Renders {@code node} for the node named {@code hostname}. */
  static String render(NodeReading node, String hostname) {
    String host = ExpositionText.escapeLabelValue(hostname);
    StringBuilder out = new StringBuilder(1024 + node.gpus().size() * AgentMetric.COUNT * 200);
    out.append("# HELP ")
        .append(UP)
        .append(" Whether the node agent can read the GPUs through NVML (1) or not (0).\n");
    out.append("# TYPE ").append(UP).append(" gauge\n");
    out.append(UP).append("{Hostname=\"").append(host).append("\"} ");
    out.append(node.up() ? 1 : 0).append('\n');
    if (!node.lost().isEmpty()) {
      out.append("# HELP ")
          .append(GPU_LOST)
          .append(" GPUs NVML reports lost (fallen off the bus) or no longer enumerates.\n");
      out.append("# TYPE ").append(GPU_LOST).append(" gauge\n");
      for (LostGpu gpu : node.lost()) {
        out.append(GPU_LOST)
            .append("{gpu=\"")
            .append(gpu.index())
            .append("\",UUID=\"")
            .append(ExpositionText.escapeLabelValue(gpu.uuid()))
            .append("\",Hostname=\"")
            .append(host)
            .append("\"} 1\n");
      }
    }
    String[] labels = new String[node.gpus().size()];
    for (int g = 0; g < labels.length; g++) {
      labels[g] = labels(node.gpus().get(g), host, node.driverVersion());
    }
    for (AgentMetric metric : AgentMetric.values()) {
      boolean headed = false;
      for (int g = 0; g < labels.length; g++) {
        GpuReading gpu = node.gpus().get(g);
        if (!gpu.has(metric)) {
          continue;
        }
        if (!headed) {
          out.append("# HELP ").append(metric.field()).append(' ').append(metric.help());
          out.append("\n# TYPE ").append(metric.field()).append(' ').append(metric.type());
          out.append('\n');
          headed = true;
        }
        out.append(metric.field()).append('{').append(labels[g]).append("} ");
        double value = gpu.value(metric);
        metric.info().appendValue(out, value);
        out.append('\n');
      }
    }
    return out.toString();
  }

  private static String labels(GpuReading gpu, String host, String driverVersion) {
    StringBuilder labels =
        new StringBuilder(200)
            .append("gpu=\"")
            .append(gpu.index)
            .append("\",UUID=\"")
            .append(ExpositionText.escapeLabelValue(gpu.uuid))
            .append("\",pci_bus_id=\"")
            .append(ExpositionText.escapeLabelValue(gpu.pciBusId))
            .append("\",device=\"nvidia")
            .append(gpu.index)
            .append("\",modelName=\"")
            .append(ExpositionText.escapeLabelValue(gpu.model))
            .append("\",Hostname=\"")
            .append(host)
            .append('"');
    if (!driverVersion.isEmpty()) {
      labels
          .append(",DCGM_FI_DRIVER_VERSION=\"")
          .append(ExpositionText.escapeLabelValue(driverVersion))
          .append('"');
    }
    return labels.toString();
  }
}
