package io.bulwark.audit.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Captures what a class logs through {@code System.Logger} (backed by java.util.logging outside the
 * framework), as formatted messages with their level, for tests that check what an operator is
 * told.
 */
final class LogCapture extends Handler implements AutoCloseable {
  private final Logger logger;
  private final List<String> messages = new CopyOnWriteArrayList<>();
  private final SimpleFormatter formatter = new SimpleFormatter();

  LogCapture(Class<?> type) {
    this.logger = Logger.getLogger(type.getName());
    logger.addHandler(this);
  }

  /** Returns the messages at {@code level} or above, as "LEVEL message". */
  List<String> atLeast(Level level) {
    return messages.stream()
        .filter(m -> Level.parse(m.substring(0, m.indexOf(' '))).intValue() >= level.intValue())
        .toList();
  }

  @Override
  public void publish(LogRecord record) {
    messages.add(record.getLevel().getName() + " " + formatter.formatMessage(record));
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    logger.removeHandler(this);
  }
}
