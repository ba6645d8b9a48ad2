package io.bulwark.provisioning.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Where the image store is, which keys it trusts and how much enlistment of unknown machines it
 * takes (PID {@code io.bulwark.provisioning}).
 */
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

  @AttributeDefinition(
      description =
          "Machines one client address may enlist at once; after them, one every"
              + " enlistmentIntervalSeconds. Enlistments past it are refused, and audited once per"
              + " address and minute.")
  int enlistmentsPerAddress() default 10;

  @AttributeDefinition(
      description = "Seconds after which one client address may enlist one more machine.")
  int enlistmentIntervalSeconds() default 6;

  @AttributeDefinition(
      description =
          "Machines that enlisted themselves and are still New (no admin has commissioned or"
              + " deleted them) past which no machine enlists.")
  int maxNewEnlisted() default 100;
}
