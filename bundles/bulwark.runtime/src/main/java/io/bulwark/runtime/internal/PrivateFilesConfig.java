package io.bulwark.runtime.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** The folders whose files only the appliance's own user may read. */
@ObjectClassDefinition(
    name = "Bulwark private files",
    description =
        "Files are created readable by their owner only; at start, what others can read in"
            + " these folders is made private and reported.")
public @interface PrivateFilesConfig {

  @AttributeDefinition(
      description =
          "Folders to keep private (the data folder; the framework storage is always included)."
              + " Environment: BULWARK_DATA_DIR.")
  String[] folders() default {"data"};
}
