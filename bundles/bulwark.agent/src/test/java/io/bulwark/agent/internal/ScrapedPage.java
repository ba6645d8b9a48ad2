package io.bulwark.agent.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.bulwark.lib.exposition.ExpositionLine;
import io.bulwark.lib.exposition.ExpositionParser;
import io.bulwark.lib.exposition.ExpositionSink;
import io.bulwark.lib.exposition.ParseSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/** A served page as the appliance's own parser reads it: samples, HELP and TYPE lines. */
final class ScrapedPage implements ExpositionSink {
  record Sample(String name, Map<String, String> labels, double value) {}

  final String text;
  final List<Sample> samples = new ArrayList<>();
  final Map<String, String> help = new LinkedHashMap<>();
  final Map<String, String> types = new LinkedHashMap<>();
  final ParseSummary summary;

  ScrapedPage(String text) {
    this.text = text;
    this.summary = new ExpositionParser().parse(text.getBytes(UTF_8), this);
  }

  @Override
  public void sample(ExpositionLine line) {
    Map<String, String> labels = new LinkedHashMap<>();
    for (int i = 0; i < line.labelCount(); i++) {
      labels.put(line.labelName(i), line.labelValue(i));
    }
    samples.add(new Sample(line.name(), labels, line.value()));
  }

  @Override
  public void help(String metric, String text) {
    help.put(metric, text);
  }

  @Override
  public void type(String metric, String type) {
    types.put(metric, type);
  }

  /** Returns the samples of {@code name}. */
  List<Sample> named(String name) {
    return samples.stream().filter(s -> s.name().equals(name)).toList();
  }

  /** Returns the value of {@code name} for GPU {@code gpu}, if the page has it. */
  OptionalDouble value(String name, int gpu) {
    return samples.stream()
        .filter(s -> s.name().equals(name) && String.valueOf(gpu).equals(s.labels().get("gpu")))
        .mapToDouble(Sample::value)
        .findFirst();
  }

  /** Returns the GPU indexes that have at least one DCGM line. */
  List<String> dcgmGpus() {
    return samples.stream()
        .filter(s -> s.name().startsWith("DCGM_FI_"))
        .map(s -> s.labels().get("gpu"))
        .distinct()
        .toList();
  }
}
