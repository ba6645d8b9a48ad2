package io.bulwark.itest;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import java.time.Instant;
import java.util.List;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mapdb.DB;
import org.mapdb.DBMaker;
import org.mapdb.Serializer;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.service.ServiceExtension;

/**
 * MapDB 3.1 brings Kotlin, Eclipse Collections, Guava, LZ4 and Elsa: they resolve as bundles and
 * work under Felix.
 */
@ExtendWith(ServiceExtension.class)
class MapDbUnderFelixTest {

  @Test
  void mapDbAndItsLibrariesWorkInsideTheFramework() {
    Bundle mapdb = FrameworkUtil.getBundle(DB.class);
    assertThat(mapdb).as("MapDB is loaded from its own bundle").isNotNull();
    assertThat(mapdb.getSymbolicName()).isEqualTo("org.mapdb.mapdb");
    List<String> wiredTo =
        mapdb.adapt(BundleWiring.class).getRequiredWires(null).stream()
            .map(w -> w.getProvider().getBundle().getSymbolicName())
            .distinct()
            .toList();
    assertThat(wiredTo)
        .as("bundles MapDB is wired to")
        .contains(
            "org.jetbrains.kotlin.osgi-bundle",
            "org.eclipse.collections.impl",
            "org.eclipse.collections.api",
            "com.google.guava",
            "lz4-java",
            "org.mapdb.elsa");

    try (DB db = DBMaker.memoryDB().make()) {
      // Tree maps run on Kotlin and Eclipse Collections, hash maps on Guava's hashing; Elsa
      // serializes values.
      NavigableMap<String, Long> tree =
          db.treeMap("tree", Serializer.STRING, Serializer.LONG).createOrOpen();
      ConcurrentMap<Long, String> hash =
          db.hashMap("hash", Serializer.LONG, Serializer.STRING).createOrOpen();
      ConcurrentMap<String, Object> elsa =
          db.hashMap("elsa", Serializer.STRING, Serializer.ELSA).createOrOpen();
      for (long i = 0; i < 5_000; i++) {
        tree.put("k" + i, i);
        hash.put(i, "v" + i);
      }
      elsa.put("list", new java.util.ArrayList<>(List.of(1, 2, 3)));
      assertThat(tree.firstKey()).isEqualTo("k0");
      assertThat(tree.get("k4999")).isEqualTo(4999L);
      assertThat(hash.get(1234L)).isEqualTo("v1234");
      assertThat(elsa.get("list")).isEqualTo(List.of(1, 2, 3));
    }
  }

  @Test
  void theStoreServiceWritesAndReadsThroughMapDb(
      @InjectService(timeout = 10_000) FleetRepository fleet) {
    NodeId id = NodeId.of("itest-node-1");
    fleet.recordObserved(
        id, List.of(new Gpu(0, "GPU-itest-0", "NVIDIA H100 80GB HBM3")), Instant.now());
    assertThat(fleet.node(id)).map(Node::gpus).hasValueSatisfying(g -> assertThat(g).hasSize(1));
  }
}
