package io.bulwark.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.bouncycastle.crypto.CryptoServicesRegistrar;
import org.junit.jupiter.api.Test;

class FipsCryptoTest {

  @Test
  void testsRunInApprovedOnlyModeOnTheFipsProvider() {
    FipsCrypto.install();
    assertThat(CryptoServicesRegistrar.isInApprovedOnlyMode()).isTrue();
    assertThat(FipsCrypto.sha256().getProvider().getName()).isEqualTo("BCFIPS");
    assertThat(FipsCrypto.hmac(new byte[32]).getProvider().getName()).isEqualTo("BCFIPS");
    assertThat(FipsCrypto.signature().getProvider().getName()).isEqualTo("BCFIPS");
    assertThatThrownBy(() -> MessageDigest.getInstance("MD5", "BCFIPS"))
        .isInstanceOf(NoSuchAlgorithmException.class);
  }
}
