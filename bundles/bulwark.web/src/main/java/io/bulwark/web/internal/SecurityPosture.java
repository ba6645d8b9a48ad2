package io.bulwark.web.internal;

import io.bulwark.api.security.CryptoModuleStatus;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What the health page says about security: the crypto module (name, version, approved-only, self
 * tests) and whether secrets are sealed to a TPM or the appliance runs in the flagged development
 * mode. Read live on every request.
 */
record SecurityPosture(Supplier<CryptoModuleStatus> crypto, BooleanSupplier secretsSealedToTpm) {}
