package io.bulwark.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** A command line the client cannot carry out as written; the message says what to change. */
final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }

  /** Returns "cannot {@code what}: why", the reason from a local file's {@code failure}. */
  static UsageException cannot(String what, IOException failure) {
    String why;
    if (failure instanceof NoSuchFileException) {
      why = "no such file or folder";
    } else if (failure instanceof AccessDeniedException) {
      why = "permission denied";
    } else if (failure instanceof FileSystemException f && f.getReason() != null) {
      why = f.getReason();
    } else {
      why =
          failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    }
    return new UsageException("cannot " + what + ": " + why);
  }
}
