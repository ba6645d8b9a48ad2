package io.bulwark.store.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Settings of the store: where its data lives. */
@ObjectClassDefinition(
    name = "Bulwark store",
    description = "The embedded MapDB store of inventory and findings.")
public @interface StoreConfig {

  @AttributeDefinition(
      description = "Folder of the store; created if missing. Environment: BULWARK_DATA_DIR.")
  String dataDir() default "data";
}
