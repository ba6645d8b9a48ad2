package io.bulwark.lib.exposition;

/**
 * Receives what {@link ExpositionParser} reads from a page, line by line, on the parsing thread.
 * Only valid lines arrive here; malformed ones are counted in the {@link ParseSummary}.
 */
public interface ExpositionSink {

  /** Receives one sample line; {@code line} is reused for the next one, so copy what you keep. */
  void sample(ExpositionLine line);

  /** Receives a {@code # HELP} line with its escapes resolved. */
  default void help(String metric, String text) {}

  /** Receives a {@code # TYPE} line: counter, gauge, histogram, summary or untyped. */
  default void type(String metric, String type) {}
}
