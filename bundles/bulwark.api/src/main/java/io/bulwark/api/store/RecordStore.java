package io.bulwark.api.store;

import java.util.function.Function;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The appliance's transactional store: named maps of versioned records in one file with a journal.
 * A write is one transaction across every map it touches, durable (it survives a crash or {@code
 * kill -9}) before it returns; a write that cannot be made (disk full or below its reserve, no file
 * descriptor left, an I/O error) changes nothing and throws {@link StoreUnavailableException}, and
 * the store recovers by itself when the cause is gone. So "persist, act, audit" stays atomic for
 * the persisting part: a caller that must do more than one change does it in one write. Provided by
 * the store bundle; every area's repositories use it. Thread-safe: writes are serialized, reads run
 * beside them.
 *
 * @since 1.1
 */
@ProviderType
public interface RecordStore {

  /**
   * Runs {@code query} on the committed state and returns what it returns.
   *
   * @throws StoreUnavailableException if the store cannot be read now
   * @throws IllegalStateException if a record cannot be read in its format (the message names the
   *     map and the key)
   */
  <T> T read(Function<StoreReader, T> query);

  /**
   * Runs {@code change} and commits what it did as one transaction.
   *
   * @param what the action in an operator's words, for the refusal's message, e.g. "save machine
   *     dgx-a07"
   * @throws StoreUnavailableException if the change could not be committed; nothing changed
   * @throws RuntimeException what {@code change} threw; nothing it did is kept
   */
  <T> T write(String what, WritePriority priority, Function<StoreReader, T> change);
}
