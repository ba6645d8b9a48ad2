package io.bulwark.security.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The configuration of the admin plane's TLS identity (PID {@code io.bulwark.security.tls}): where
 * its keystore lives and the host name of a generated certificate. Read once by {@link
 * AdminTlsIdentity} and turned into {@link TlsOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark admin TLS identity",
    description = "The admin plane's certificate and private key.")
public @interface TlsConfig {

  @AttributeDefinition(
      name = "Keystore",
      description =
          "BCFKS keystore of the admin certificate and key; created with a self-signed certificate"
              + " if missing. Its password is kept in the secret store.")
  String keystore() default "data/tls/admin.bcfks";

  @AttributeDefinition(
      name = "Host name",
      description =
          "Host name (or IP address) for a generated self-signed certificate; empty uses this"
              + " machine's name.")
  String hostName() default "";
}
