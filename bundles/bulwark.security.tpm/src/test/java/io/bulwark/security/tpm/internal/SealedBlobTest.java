package io.bulwark.security.tpm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SealedBlobTest {
  private static final byte[] NAME = name();
  private static final byte[] PUBLIC = {0, 4, 1, 2, 3, 4};
  private static final byte[] PRIVATE = {0, 3, 9, 8, 7};

  @Test
  void theBytesReadBackAsTheSameBlob() {
    SealedBlob blob =
        new SealedBlob(
            NAME, PcrSelection.parse("0,7"), new TpmConnection.SealedObject(PUBLIC, PRIVATE));

    SealedBlob read = SealedBlob.parse(blob.toBytes());

    assertThat(read.storageKeyName()).isEqualTo(NAME);
    assertThat(read.pcrs()).isEqualTo(PcrSelection.parse("0,7"));
    assertThat(read.object().publicArea()).isEqualTo(PUBLIC);
    assertThat(read.object().privateArea()).isEqualTo(PRIVATE);
  }

  @Test
  void theLayoutIsTheDocumentedOne() {
    byte[] bytes =
        new SealedBlob(
                NAME, PcrSelection.parse("7"), new TpmConnection.SealedObject(PUBLIC, PRIVATE))
            .toBytes();

    assertThat(Arrays.copyOfRange(bytes, 0, 8)).containsExactly('B', 'W', 'S', 'K', 1, 1, 0, 34);
    assertThat(Arrays.copyOfRange(bytes, 8, 42)).isEqualTo(NAME);
    assertThat(Arrays.copyOfRange(bytes, 42, 48)).containsExactly(0x00, 0x0B, 3, 0x80, 0, 0);
    assertThat(Arrays.copyOfRange(bytes, 48, bytes.length))
        .containsExactly(0, 4, 1, 2, 3, 4, 0, 3, 9, 8, 7);
  }

  @Test
  void damagedFramingIsRefusedWithTheReason() {
    byte[] good =
        new SealedBlob(NAME, PcrSelection.NONE, new TpmConnection.SealedObject(PUBLIC, PRIVATE))
            .toBytes();

    assertDamaged(Arrays.copyOf(good, 3), "truncated");
    assertDamaged(with(good, 0, 'X'), "Bulwark sealed-key header");
    assertDamaged(with(good, 4, 2), "format version 2");
    assertDamaged(with(good, 5, 9), "storage key kind 9");
    assertDamaged(with(good, 7, 33), "has 33 bytes, not 34");
    assertDamaged(with(good, 43, 0x0c), "PCR bank 0x000c");
    assertDamaged(with(good, 44, 5), "at most 4 bytes");
    assertDamaged(with(good, 48, 9), "the public area claims");
    assertDamaged(Arrays.copyOf(good, good.length + 2), "2 unexpected bytes");
    assertDamaged(new byte[SealedBlob.MAX_BYTES + 1], "more than a sealed key can have");
  }

  private static void assertDamaged(byte[] blob, String reason) {
    assertThatThrownBy(() -> SealedBlob.parse(blob))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("The sealed key blob is damaged")
        .hasMessageContaining(reason);
  }

  private static byte[] with(byte[] bytes, int index, int value) {
    byte[] changed = bytes.clone();
    changed[index] = (byte) value;
    return changed;
  }

  private static byte[] name() {
    byte[] name = new byte[34];
    name[1] = 0x0B;
    for (int i = 2; i < name.length; i++) {
      name[i] = (byte) i;
    }
    return name;
  }
}
