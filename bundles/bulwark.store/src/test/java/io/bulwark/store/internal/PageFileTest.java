package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page file's commit protocol at the byte level: a journal cut anywhere (Bulwark stopped while
 * writing it) or with a flipped bit holds no committed transaction and is discarded, leaving the
 * last commit; a complete journal (Bulwark stopped after the commit, before writing the data file)
 * is replayed.
 */
class PageFileTest {
  private static final int P = PageFile.PAGE_SIZE;

  @TempDir Path dir;

  private Path data() {
    return dir.resolve("test.db");
  }

  private Path journal() {
    return dir.resolve("test.db" + PageFile.JOURNAL_SUFFIX);
  }

  private static byte[] page(int fill) {
    byte[] b = new byte[P];
    Arrays.fill(b, (byte) fill);
    return b;
  }

  private void commitFirst() throws Exception {
    try (PageFile f = PageFile.open(data(), 16)) {
      f.commit(new java.util.HashMap<>(Map.of(0L, page('A'), 1L, page('B'))), 2L * P);
      assertThat(f.commits()).isEqualTo(1);
    }
    assertThat(Files.size(journal())).as("journal emptied after the commit").isZero();
  }

  private byte[] secondTransaction() {
    ByteBuffer image = PageJournal.encode(2, 3L * P, Map.of(1L, page('C'), 2L, page('D')), P);
    byte[] bytes = new byte[image.remaining()];
    image.get(bytes);
    return bytes;
  }

  @Test
  void aJournalCutAtAnyPointIsDiscardedAndTheLastCommitStands() throws Exception {
    commitFirst();
    byte[] image = secondTransaction();
    TreeSet<Integer> cuts = new TreeSet<>();
    for (int i = 0; i < 64; i++) {
      cuts.add(i);
      cuts.add(image.length - 1 - i);
    }
    for (int i = 0; i < image.length; i += 509) {
      cuts.add(i);
    }
    for (int cut : cuts) {
      Files.write(journal(), Arrays.copyOf(image, cut));
      try (PageFile f = PageFile.open(data(), 16)) {
        assertThat(f.page(0)).as("cut at %d", cut).isEqualTo(page('A'));
        assertThat(f.page(1)).as("cut at %d", cut).isEqualTo(page('B'));
        assertThat(f.page(2)).as("cut at %d", cut).isEqualTo(new byte[P]);
        if (cut > 0) {
          assertThat(f.recovery()).startsWith("discarded " + cut + " bytes");
        }
      }
      assertThat(Files.size(journal())).isZero();
    }
  }

  @Test
  void aJournalCutWhileOverwritingThePreviousTransactionNeverResurrectsHalfOfEither()
      throws Exception {
    commitFirst();
    ByteBuffer first = PageJournal.encode(1, 2L * P, Map.of(0L, page('A'), 1L, page('B')), P);
    byte[] previous = new byte[first.remaining()];
    first.get(previous);
    byte[] image = secondTransaction();
    for (int cut = 0; cut < image.length; cut += 257) {
      byte[] torn = Arrays.copyOf(previous, Math.max(previous.length, image.length));
      System.arraycopy(image, 0, torn, 0, cut);
      Files.write(journal(), torn);
      try (PageFile f = PageFile.open(data(), 16)) {
        assertThat(f.page(0)).as("cut at %d", cut).isEqualTo(page('A'));
        assertThat(f.page(1)).as("cut at %d", cut).isEqualTo(page('B'));
        assertThat(f.page(2)).as("cut at %d", cut).isEqualTo(new byte[P]);
      }
    }
  }

  @Test
  void aJournalWithAFlippedBitIsDiscarded() throws Exception {
    commitFirst();
    byte[] image = secondTransaction();
    image[image.length / 2] ^= 0x10;
    Files.write(journal(), image);
    try (PageFile f = PageFile.open(data(), 16)) {
      assertThat(f.page(1)).isEqualTo(page('B'));
      assertThat(f.recovery()).startsWith("discarded");
    }
  }

  @Test
  void aCompleteJournalIsReplayedIntoTheDataFile() throws Exception {
    commitFirst();
    Files.write(journal(), secondTransaction());
    try (PageFile f = PageFile.open(data(), 16)) {
      assertThat(f.recovery()).startsWith("replayed the last committed transaction (2 page(s))");
      assertThat(f.page(0)).isEqualTo(page('A'));
      assertThat(f.page(1)).isEqualTo(page('C'));
      assertThat(f.page(2)).isEqualTo(page('D'));
      assertThat(f.length()).isEqualTo(3L * P);
    }
    assertThat(Files.size(journal())).isZero();
    try (PageFile f = PageFile.open(data(), 16)) {
      assertThat(f.recovery()).isNull();
      assertThat(f.page(2)).isEqualTo(page('D'));
    }
  }

  @Test
  void theDataAndJournalFilesAreReadableByTheOwnerOnly() throws Exception {
    commitFirst();
    assertThat(java.nio.file.Files.getPosixFilePermissions(data()))
        .containsExactlyInAnyOrder(
            java.nio.file.attribute.PosixFilePermission.OWNER_READ,
            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
    assertThat(java.nio.file.Files.getPosixFilePermissions(journal()))
        .containsExactlyInAnyOrder(
            java.nio.file.attribute.PosixFilePermission.OWNER_READ,
            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
  }
}
