package io.bulwark.health.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingRepository;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.store.RecordMap;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.StoreMap;
import io.bulwark.api.store.WritePriority;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The findings, in the store's map {@code findings}, with the open ones also in {@code
 * findings.open} so that restoring them at start-up reads only those; both change in one
 * transaction. A finding about the appliance itself ({@code appliance-…}, e.g. the disk filling) is
 * written into the store's reserve, so that it is kept while routine writes are refused.
 */
@Component(service = FindingRepository.class)
public final class StoreFindings implements FindingRepository {
  /** Finding kinds about the appliance itself start with this. */
  static final String APPLIANCE_KIND_PREFIX = "appliance-";

  static final StoreMap<String, Finding> ALL = StoreMap.byName("findings", FindingFormat.INSTANCE);
  static final StoreMap<String, Finding> OPEN =
      StoreMap.byName("findings.open", FindingFormat.INSTANCE);

  private final RecordStore store;

  @Activate
  public StoreFindings(@Reference RecordStore store) {
    this.store = store;
  }

  @Override
  public void save(Finding finding) {
    store.write(
        "save finding " + finding.id(),
        finding.kind().startsWith(APPLIANCE_KIND_PREFIX)
            ? WritePriority.RESERVED
            : WritePriority.ROUTINE,
        s -> {
          s.map(ALL).put(finding.id(), finding);
          RecordMap<String, Finding> open = s.map(OPEN);
          if (finding.state() == FindingState.OPEN) {
            open.put(finding.id(), finding);
          } else {
            open.remove(finding.id());
          }
          return null;
        });
  }

  @Override
  public Optional<Finding> get(String id) {
    return Optional.ofNullable(store.read(s -> s.map(ALL).get(id)));
  }

  @Override
  public List<Finding> find(FindingQuery query) {
    boolean onlyOpen = query.state().map(s -> s == FindingState.OPEN).orElse(false);
    List<Map.Entry<String, Finding>> entries =
        store.read(s -> s.map(onlyOpen ? OPEN : ALL).entries());
    return entries.stream()
        .map(Map.Entry::getValue)
        .filter(query::matches)
        .sorted(Comparator.comparing(Finding::lastSeen).reversed().thenComparing(Finding::id))
        .limit(query.limit())
        .toList();
  }
}
