package io.bulwark.security.tpm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the TPM key sealer (PID {@code io.bulwark.security.tpm}): which TPM to talk to
 * and which PCRs a newly sealed key is bound to. Read once by {@link SealerOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark TPM key sealer",
    description =
        "Seals the data-encryption key to this machine's TPM 2.0, optionally bound to PCR values.")
public @interface TpmKeySealerConfig {

  @AttributeDefinition(
      name = "TCTI",
      description =
          "tpm2-tss TCTI configuration naming the TPM: device:/dev/tpmrm0 (the kernel resource"
              + " manager), or swtpm:host=127.0.0.1,port=2321 for a software TPM.")
  String tcti() default "device:/dev/tpmrm0";

  @AttributeDefinition(
      name = "PCRs",
      description =
          "Comma-separated SHA-256 PCR indices (0 to 23) whose current values a newly sealed key"
              + " is bound to, e.g. 0,7; empty binds to no PCRs. Blobs sealed earlier keep the PCRs"
              + " they were sealed with.")
  String pcrs() default "";
}
