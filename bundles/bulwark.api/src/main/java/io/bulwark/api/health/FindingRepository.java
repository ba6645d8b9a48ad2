package io.bulwark.api.health;

import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The persistent record of findings. Provided by the store; used by the health engine. Thread-safe;
 * a write is durable when it returns.
 */
@ProviderType
public interface FindingRepository {

  /** Inserts or replaces the finding with {@code finding.id()}. */
  void save(Finding finding);

  /** Returns the finding with this id, or empty. */
  Optional<Finding> get(String id);

  /**
   * Returns the findings that match, newest {@code lastSeen} first, at most {@code query.limit()}.
   */
  List<Finding> find(FindingQuery query);
}
