package io.bulwark.api.agent;

import java.util.Objects;

/** The agent channel could not do what was asked; the message says why and what to do. */
public final class AgentChannelException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why. */
  public enum Kind {
    /** The node has no usable agent certificate (never enrolled, revoked or expired). */
    NOT_ENROLLED,
    /** The agent could not be reached, or the handshake failed. */
    UNREACHABLE,
    /** The agent answered but refused (its answer's status and message say why). */
    REFUSED,
    /** The answer was unsigned, wrongly signed or malformed. */
    BAD_ANSWER
  }

  private final Kind kind;

  /** Creates the exception. */
  public AgentChannelException(Kind kind, String message) {
    super(message);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  /** Creates the exception with its cause. */
  public AgentChannelException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  /** Returns why. */
  public Kind kind() {
    return kind;
  }
}
