package io.bulwark.runtime.internal;

import java.lang.System.Logger.Level;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.log.LogEntry;
import org.osgi.service.log.LogListener;
import org.osgi.service.log.LogReaderService;

/**
 * Carries warnings and errors that the framework and its services (Declarative Services, Config
 * Admin, the Configurator) write to the OSGi log onto the appliance's console log, so that an
 * operator sees why a component did not start. A component that refused to start with a message of
 * Bulwark's own (an {@link IllegalStateException} or {@link IllegalArgumentException} thrown by
 * Bulwark code, such as "cannot reach the TPM" in development mode) is one warning line with that
 * message; anything else keeps its stack trace, for a bug report.
 */
@Component(immediate = true)
public final class LogConsole implements LogListener {
  private final LogReaderService reader;

  @Activate
  public LogConsole(@Reference LogReaderService reader) {
    this.reader = reader;
    reader.addLogListener(this);
  }

  @Deactivate
  void deactivate() {
    reader.removeLogListener(this);
  }

  @Override
  public void logged(LogEntry entry) {
    Level level =
        switch (entry.getLogLevel()) {
          case AUDIT, ERROR -> Level.ERROR;
          case WARN -> Level.WARNING;
          default -> null;
        };
    if (level == null) {
      return;
    }
    System.Logger logger =
        System.getLogger(entry.getLoggerName() == null ? "osgi" : entry.getLoggerName());
    String origin = entry.getBundle() == null ? "framework" : entry.getBundle().getSymbolicName();
    Throwable refusal = operatorRefusal(entry.getException());
    if (refusal != null) {
      logger.log(
          Level.WARNING, "[" + origin + "] " + entry.getMessage() + ": " + refusal.getMessage());
    } else if (entry.getException() != null) {
      logger.log(level, "[" + origin + "] " + entry.getMessage(), entry.getException());
    } else {
      logger.log(level, "[" + origin + "] " + entry.getMessage());
    }
  }

  /**
   * Returns the innermost cause of {@code failure} if it is a refusal Bulwark code raised with a
   * message for the operator, else null.
   */
  static Throwable operatorRefusal(Throwable failure) {
    Throwable root = failure;
    int depth = 0;
    while (root != null && root.getCause() != null && root.getCause() != root && depth++ < 20) {
      root = root.getCause();
    }
    if (!(root instanceof IllegalStateException || root instanceof IllegalArgumentException)
        || root.getMessage() == null
        || root.getStackTrace().length == 0) {
      return null;
    }
    return root.getStackTrace()[0].getClassName().startsWith("io.bulwark.") ? root : null;
  }
}
