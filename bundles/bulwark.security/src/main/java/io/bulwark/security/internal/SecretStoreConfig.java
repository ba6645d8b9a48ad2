package io.bulwark.security.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The configuration of the secret store (PID {@code io.bulwark.security.secrets}): where the
 * encrypted secrets live and whether the store may run without a TPM. Read once by {@link
 * EncryptedSecretStore} and turned into {@link SecretStoreOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark secret store",
    description = "Secrets encrypted at rest under a data-encryption key sealed to the TPM.")
public @interface SecretStoreConfig {

  @AttributeDefinition(
      name = "Folder",
      description = "Folder of the encrypted secrets and the sealed data-encryption key.")
  String folder() default "data/secrets";

  @AttributeDefinition(
      name = "Development mode",
      description =
          "Without a TPM, keep the data-encryption key in a file readable by the owner only. Never"
              + " on a production appliance.")
  boolean developmentMode() default false;
}
