package io.bulwark.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.Random;
import java.util.TreeMap;
import javax.crypto.Mac;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the record form: records of random awkward text written by {@link CanonicalJson} must read
 * back through Jackson as the same fields and be written again as the same bytes; lines mutated at
 * random must either be refused as malformed or, where they still read as a record, be seen by the
 * chain verifier's checks (not canonical, or a hash or HMAC that no longer matches). Seeded, so a
 * failure names the case that reproduces it.
 */
class RecordJsonFuzzTest {
  private static final long SEED = 0x5eed_a0d1L;
  private static final char[] AWKWARD = {
    '"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f', '\u0080', '\u00e9',
    '\u2028', '\u2029', '\ud800', '\udbff', '\udc00', '\udfff', '\ufeff', '\uffff', '{', '}', ':',
    ',', '[', ']', 'a', 'Z', '0', ' '
  };

  private static MessageDigest digest;
  private static Mac hmac;

  @BeforeAll
  static void provider() {
    FipsCrypto.install();
    digest = FipsCrypto.sha256();
    byte[] key = new byte[32];
    new Random(SEED).nextBytes(key);
    hmac = FipsCrypto.hmac(key);
  }

  @Test
  void randomRecordsReadBackAsWritten() {
    Random random = new Random(SEED);
    for (int i = 0; i < 5_000; i++) {
      StoredRecord written = sealed(randomRecord(random));
      byte[] line = written.line().getBytes(StandardCharsets.UTF_8);

      StoredRecord read;
      try {
        read = StoredRecord.parse(line, line.length);
      } catch (MalformedRecordException e) {
        throw new AssertionError("case " + i + ": a written record was refused: " + e, e);
      }

      assertThat(read).as("case %d", i).isEqualTo(written);
      assertThat(read.line().getBytes(StandardCharsets.UTF_8)).as("case %d", i).isEqualTo(line);
    }
  }

  @Test
  void mutatedLinesAreRefusedOrSeenByTheChainChecks() {
    Random random = new Random(SEED + 1);
    int refused = 0;
    int detected = 0;
    for (int i = 0; i < 20_000; i++) {
      StoredRecord original = sealed(randomRecord(random));
      byte[] line = mutate(original.line().getBytes(StandardCharsets.UTF_8), random);
      StoredRecord read;
      try {
        read = StoredRecord.parse(line, line.length);
      } catch (MalformedRecordException e) {
        refused++;
        continue;
      } catch (RuntimeException e) {
        fail("case " + i + ": " + new String(line, StandardCharsets.UTF_8) + " threw " + e, e);
        return;
      }
      boolean canonical = Arrays.equals(read.line().getBytes(StandardCharsets.UTF_8), line);
      boolean hashHolds = FipsCrypto.sha256Hex(digest, read.body()).equals(read.hash());
      boolean hmacHolds = FipsCrypto.hmacHex(hmac, read.body()).equals(read.hmac());
      if (Arrays.equals(line, original.line().getBytes(StandardCharsets.UTF_8))) {
        continue; // the mutation changed nothing
      }
      assertThat(canonical && hashHolds && hmacHolds)
          .as("case %d: a changed line passes as intact: %s", i, new String(line, UTF8))
          .isFalse();
      detected++;
    }
    assertThat(refused).as("lines refused as malformed").isGreaterThan(10_000);
    assertThat(detected).as("lines that read but fail the chain checks").isGreaterThan(100);
  }

  private static final java.nio.charset.Charset UTF8 = StandardCharsets.UTF_8;

  private static StoredRecord sealed(StoredRecord unsealed) {
    String body = unsealed.body();
    return unsealed.sealed(FipsCrypto.sha256Hex(digest, body), FipsCrypto.hmacHex(hmac, body));
  }

  private static StoredRecord randomRecord(Random random) {
    TreeMap<String, String> details = new TreeMap<>();
    for (int n = random.nextInt(4); n > 0; n--) {
      details.put(text(random), text(random));
    }
    AuditEvent event =
        new AuditEvent(
            text(random),
            text(random),
            "fuzz." + random.nextInt(100),
            text(random),
            AuditOutcome.values()[random.nextInt(AuditOutcome.values().length)],
            details);
    return StoredRecord.unsealed(
        1 + (random.nextLong() & Long.MAX_VALUE) % 1_000_000_000L,
        Instant.ofEpochSecond(random.nextInt(2_000_000_000), random.nextInt(1_000_000) * 1000L),
        event,
        StoredRecord.GENESIS);
  }

  private static String text(Random random) {
    StringBuilder s = new StringBuilder();
    for (int n = random.nextInt(12); n > 0; n--) {
      int pick = random.nextInt(4);
      if (pick == 0) {
        s.append(AWKWARD[random.nextInt(AWKWARD.length)]);
      } else if (pick == 1) {
        s.appendCodePoint(0x1f600 + random.nextInt(80));
      } else {
        s.append((char) ('a' + random.nextInt(26)));
      }
    }
    return s.toString();
  }

  private static byte[] mutate(byte[] line, Random random) {
    byte[] out = line.clone();
    switch (random.nextInt(5)) {
      case 0 -> out[random.nextInt(out.length)] = (byte) random.nextInt(256);
      case 1 -> out[random.nextInt(out.length)] ^= (byte) (1 << random.nextInt(8));
      case 2 -> out = Arrays.copyOf(out, random.nextInt(out.length));
      case 3 -> {
        int at = random.nextInt(out.length + 1);
        byte[] longer = new byte[out.length + 1];
        System.arraycopy(out, 0, longer, 0, at);
        longer[at] = (byte) "\"\\{}:, 0u".charAt(random.nextInt(9));
        System.arraycopy(out, at, longer, at + 1, out.length - at);
        out = longer;
      }
      default -> {
        int at = random.nextInt(out.length);
        byte[] shorter = new byte[out.length - 1];
        System.arraycopy(out, 0, shorter, 0, at);
        System.arraycopy(out, at + 1, shorter, at, out.length - at - 1);
        out = shorter;
      }
    }
    return out;
  }
}
