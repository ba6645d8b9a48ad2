package io.bulwark.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import org.junit.jupiter.api.Test;

/** A component's refusal in Bulwark's own words is one line; anything else keeps its trace. */
class LogConsoleTest {

  @Test
  void aRefusalOfBulwarksOwnIsFoundThroughTheWrappers() {
    IllegalStateException refusal = refusalFromBulwark();
    Throwable wrapped = new RuntimeException("log", new InvocationTargetException(refusal));

    assertThat(LogConsole.operatorRefusal(wrapped)).isSameAs(refusal);
  }

  @Test
  void aBugKeepsItsStackTrace() {
    assertThat(LogConsole.operatorRefusal(new RuntimeException(new NullPointerException("x"))))
        .isNull();
    IllegalStateException fromLibrary = new IllegalStateException("from a library");
    fromLibrary.setStackTrace(
        new StackTraceElement[] {new StackTraceElement("org.mapdb.DB", "commit", "DB.kt", 1)});
    assertThat(LogConsole.operatorRefusal(fromLibrary)).isNull();
    assertThat(LogConsole.operatorRefusal(null)).isNull();
  }

  private static IllegalStateException refusalFromBulwark() {
    IllegalStateException e = new IllegalStateException("Cannot reach the TPM through TCTI x");
    e.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement(
              "io.bulwark.security.tpm.internal.TpmConnection", "open", "TpmConnection.java", 80)
        });
    return e;
  }
}
