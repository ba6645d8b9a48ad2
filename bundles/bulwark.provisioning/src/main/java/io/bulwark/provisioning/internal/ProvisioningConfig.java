package io.bulwark.provisioning.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Where the image store is and which keys it trusts (PID {@code io.bulwark.provisioning}). */
@ObjectClassDefinition(
    name = "Bulwark provisioning",
    description =
        "Enlistment, commissioning, deployment and release of machines that boot from the network.")
@interface ProvisioningConfig {
  @AttributeDefinition(
      description =
          "The image store: NAME.img with NAME.img.sig. It must be the images folder of the"
              + " provisioning plane's boot root, which serves it to the boot environment.")
  String imageFolder() default "data/pxe/boot/images";

  @AttributeDefinition(
      description =
          "Folders of trusted P-384 public keys (*.pem) that image signatures are checked with: the"
              + " release keys shipped in keys/ and any the site adds.")
  String[] keyFolders() default {"keys"};
}
