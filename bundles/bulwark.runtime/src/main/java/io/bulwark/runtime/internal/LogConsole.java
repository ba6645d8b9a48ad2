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
 * operator sees why a component did not start.
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
    if (entry.getException() != null) {
      logger.log(level, "[" + origin + "] " + entry.getMessage(), entry.getException());
    } else {
      logger.log(level, "[" + origin + "] " + entry.getMessage());
    }
  }
}
