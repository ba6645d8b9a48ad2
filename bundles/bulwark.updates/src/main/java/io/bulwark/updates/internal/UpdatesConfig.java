package io.bulwark.updates.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(
    name = "Bulwark offline updates",
    description =
        "Where update packages arrive, which keys they must be signed by, where they are staged.")
@interface UpdatesConfig {
  @AttributeDefinition(
      description =
          "Folders of trusted update-signing public keys (NAME.ecdsa.pem and NAME.lms.pem)."
              + " Environment: BULWARK_DATA_DIR (keys/ of the working folder and keys/ in it).")
  String[] keyFolders() default {"keys", "data/keys"};

  @AttributeDefinition(
      description =
          "The mount point of the update stick (the appliance image mounts USB sticks there,"
              + " read-only): its *.bwu files are offered for install. Environment:"
              + " BULWARK_UPDATES_WATCH.")
  String watchFolder() default "data/usb";

  @AttributeDefinition(
      description =
          "The offline repository: every verified bundle an update brought, with its R5 index.")
  String repository() default "data/offline-repo";

  @AttributeDefinition(
      description =
          "The update state: running and previous bundle sets, install journal, history,"
              + " revoked keys, packages being verified.")
  String stateFolder() default "data/updates";

  @AttributeDefinition(
      description = "How long the health check after a swap waits for bundles and services.")
  int healthSeconds() default 60;
}
