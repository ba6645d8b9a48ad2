package io.bulwark.provisioning.internal;

import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The hardware tests an operator chose for a machine's next testing: test names or tags (the boot
 * environment runs every test whose name or one of whose tags is listed).
 */
record TestChoice(String machine, List<String> tests, Instant at) {
  static final Pattern WORD = Pattern.compile("[a-z0-9][a-z0-9_-]{0,39}");
  static final StoreMap<String, TestChoice> MAP =
      StoreMap.byName("provisioning.tests", new Format());

  TestChoice {
    tests = List.copyOf(tests);
    for (String t : tests) {
      if (!WORD.matcher(t).matches()) {
        throw new IllegalArgumentException(
            "'" + t + "' is no test name or tag (lower-case letters, digits, '-' and '_')");
      }
    }
  }

  static final class Format implements RecordFormat<TestChoice> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(TestChoice r, DataOutputStream out) throws IOException {
      out.writeUTF(r.machine);
      out.writeUTF(String.join(",", r.tests));
      Records.writeInstant(out, r.at);
    }

    @Override
    public TestChoice read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("test choice", version, 1);
      }
      String machine = in.readUTF();
      String tests = in.readUTF();
      return new TestChoice(
          machine,
          tests.isEmpty() ? List.of() : List.of(tests.split(",")),
          Records.readInstant(in));
    }
  }
}
