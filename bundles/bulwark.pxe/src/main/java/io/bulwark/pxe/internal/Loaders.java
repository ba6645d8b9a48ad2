package io.bulwark.pxe.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Puts the iPXE loaders into the TFTP root: copies of the files the distribution ships (Debian's
 * {@code ipxe} package links {@code ipxe.efi} from {@code /usr/lib/ipxe} to {@code /boot}), so that
 * the root holds plain files and the server never follows a link out of it.
 */
final class Loaders {
  private static final Logger LOG = Logger.getLogger(Loaders.class.getName());
  static final List<String> NAMES =
      List.of("undionly.kpxe", "ipxe.efi", "snponly.efi", "ipxe-arm64.efi");

  private Loaders() {}

  /** Copies each loader of {@code source} that the root lacks or holds in another size. */
  static List<String> install(Path source, Path root) throws IOException {
    Files.createDirectories(root);
    List<String> copied = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String name : NAMES) {
      Path from = source.resolve(name);
      Path to = root.resolve(name);
      if (!Files.isRegularFile(from)) {
        if (!Files.isRegularFile(to, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          missing.add(name);
        }
        continue;
      }
      if (Files.isRegularFile(to, java.nio.file.LinkOption.NOFOLLOW_LINKS)
          && Files.size(to) == Files.size(from)) {
        continue;
      }
      Path part = root.resolve(name + ".part");
      Files.copy(from, part, StandardCopyOption.REPLACE_EXISTING);
      Files.move(part, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      copied.add(name);
    }
    if (!copied.isEmpty()) {
      LOG.info(
          "iPXE loaders copied from " + source + " into the TFTP root " + root + ": " + copied);
    }
    if (missing.contains("undionly.kpxe") || missing.contains("ipxe.efi")) {
      LOG.warning(
          "The TFTP root "
              + root
              + " has no "
              + missing
              + ": BIOS or UEFI machines whose firmware is not iPXE cannot boot. Install Debian's"
              + " ipxe package (or put the loaders in "
              + source
              + ") and restart the plane");
    }
    return copied;
  }
}
