package io.bulwark.api.store;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * How the records of one map become bytes and back. The store writes {@link #version()} before
 * every record and hands the version back when it reads one, so that a format can change: raise the
 * version, write the new layout, and keep reading the old ones. Implemented by the area that owns
 * the records; must be stateless and thread-safe.
 *
 * @param <T> the record type
 * @since 1.1
 */
@ConsumerType
public interface RecordFormat<T> {

  /** Returns the version written now: 1 to 255. */
  int version();

  /** Writes {@code value} in the current version's layout. */
  void write(T value, DataOutputStream out) throws IOException;

  /**
   * Reads a record written in {@code version}'s layout ({@code in} holds exactly its bytes, so that
   * {@link DataInputStream#available()} tells whether a field a later writer added is there).
   *
   * @throws IOException if the bytes do not hold such a record, or the version is unknown (the
   *     store reports it with the map and key)
   */
  T read(int version, DataInputStream in) throws IOException;
}
