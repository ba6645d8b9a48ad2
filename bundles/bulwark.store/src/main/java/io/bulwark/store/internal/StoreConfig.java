package io.bulwark.store.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Settings of the store: where its data lives, the disk reserve it keeps, its page cache. */
@ObjectClassDefinition(
    name = "Bulwark store",
    description = "The embedded MapDB store of inventory, findings, accounts and capacity.")
public @interface StoreConfig {

  @AttributeDefinition(
      description = "Folder of the store; created if missing. Environment: BULWARK_DATA_DIR.")
  String dataDir() default "data";

  @AttributeDefinition(
      description =
          "Free space (MiB) the store leaves on the disk of its folder (at most a tenth of the"
              + " disk): below it, routine writes"
              + " (findings, inventory, capacity) are refused with 503 until space is freed, so"
              + " that the disk never fills and the audit log keeps room; account and token"
              + " writes go on down to an eighth of it. 0 turns the guard off.")
  long minFreeMegabytes() default 256;

  @AttributeDefinition(
      description = "Memory (MiB) for pages of the data file read from disk.",
      min = "1")
  int cacheMegabytes() default 32;
}
