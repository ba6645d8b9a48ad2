package io.bulwark.api.system;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A subsystem's self-report, registered as an OSGi service (whiteboard) by the bundle that owns the
 * subsystem. The health API, {@code /metrics} and the health engine call {@link #status()} often,
 * on their own threads: it must answer from state the subsystem already keeps, in well under a
 * millisecond, without I/O that can block, and never throw.
 */
@ConsumerType
public interface SubsystemCheck {

  /** Returns the subsystem's state now. Never null. */
  SubsystemStatus status();
}
