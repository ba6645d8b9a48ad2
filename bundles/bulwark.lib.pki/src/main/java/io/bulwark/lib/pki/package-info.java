/**
 * What the appliance and the node agent share to trust each other, all through the BouncyCastle
 * FIPS module: the provider order ({@link io.bulwark.lib.pki.FipsProviders}), ECDSA P-384 keys and
 * certificate requests ({@link io.bulwark.lib.pki.EcKeys}), certificates of the appliance's agent
 * authority ({@link io.bulwark.lib.pki.Certificates}), PEM ({@link io.bulwark.lib.pki.Pem}),
 * mutually authenticated TLS contexts of BCJSSE ({@link io.bulwark.lib.pki.MutualTls}) and the
 * signature each action request and answer carries ({@link io.bulwark.lib.pki.SignedMessages}).
 */
@Export
@Version("1.0.0")
package io.bulwark.lib.pki;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
