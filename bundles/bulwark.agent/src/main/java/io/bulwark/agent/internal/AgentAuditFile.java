package io.bulwark.agent.internal;

import io.bulwark.lib.pki.SignedMessages;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The node agent's own audit trail of the action channel: one JSON line per request, each carrying
 * the SHA-384 of the line before it ({@code prev}), so that a removed or changed line breaks the
 * chain; every line is on disk ({@code force}) before the answer leaves.
 */
final class AgentAuditFile implements AutoCloseable {
  private final FileChannel channel;
  private String previous;

  AgentAuditFile(Path file) throws IOException {
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    String last = "";
    if (Files.exists(file)) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = lines.size() - 1; i >= 0; i--) {
        if (!lines.get(i).isBlank()) {
          last = SignedMessages.sha384(lines.get(i).getBytes(StandardCharsets.UTF_8));
          break;
        }
      }
    }
    this.previous = last;
    this.channel =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
  }

  /** Appends {@code entry} with the chain link and syncs it. */
  synchronized void append(JsonObject entry) throws IOException {
    String line = entry.copy().put("prev", previous).encode();
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      channel.write(b);
    }
    channel.force(false);
    previous = SignedMessages.sha384(line.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public synchronized void close() throws IOException {
    channel.close();
  }
}
