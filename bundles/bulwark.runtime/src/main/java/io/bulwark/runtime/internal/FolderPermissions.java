package io.bulwark.runtime.internal;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Takes away from group and others every permission on a folder's files and sub-folders (files
 * become at most 0600 plus the owner's execute bit, folders at most 0700); symbolic links are not
 * followed. Says what it changed and what it could not.
 */
final class FolderPermissions {
  private static final Set<PosixFilePermission> OTHERS =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  private FolderPermissions() {}

  /** What one folder needed. */
  record Report(Path folder, int files, int folders, List<String> examples, List<String> problems) {
    int changed() {
      return files + folders;
    }

    String describe() {
      return files
          + " file(s) and "
          + folders
          + " folder(s) in "
          + folder
          + " (e.g. "
          + String.join(", ", examples)
          + ")";
    }
  }

  static Report makePrivate(Path folder) {
    int[] counts = new int[2];
    List<String> examples = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
      return new Report(folder, 0, 0, examples, problems);
    }
    try {
      Files.walkFileTree(
          folder,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              fix(dir, 1);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (attrs.isRegularFile()) {
                fix(file, 0);
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              problems.add("Cannot check the permissions of " + file + ": " + e.getMessage());
              return FileVisitResult.CONTINUE;
            }

            private void fix(Path p, int kind) {
              try {
                Set<PosixFilePermission> perms =
                    Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
                if (perms.stream().noneMatch(OTHERS::contains)) {
                  return;
                }
                perms.removeAll(OTHERS);
                Files.setPosixFilePermissions(p, perms);
                counts[kind]++;
                if (examples.size() < 5) {
                  examples.add(
                      folder.relativize(p).toString().isEmpty()
                          ? "."
                          : folder.relativize(p).toString());
                }
              } catch (IOException | UnsupportedOperationException e) {
                problems.add(
                    "Cannot make "
                        + p
                        + " private ("
                        + e
                        + "): change its owner to the user Bulwark runs as, or its mode to 0600");
              }
            }
          });
    } catch (IOException e) {
      problems.add("Cannot walk " + folder + ": " + e.getMessage());
    }
    return new Report(folder, counts[0], counts[1], examples, problems);
  }
}
