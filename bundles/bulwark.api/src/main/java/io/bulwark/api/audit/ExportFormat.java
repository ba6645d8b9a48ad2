package io.bulwark.api.audit;

/**
 * The formats of an audit export, with the media type and file extension a web client or a file
 * system needs: JSON Lines (the records exactly as the appliance stores them, which the offline
 * verifier checks) and CSV (one row per record, for spreadsheets).
 */
public enum ExportFormat {
  JSONL("application/jsonl", ".jsonl"),
  CSV("text/csv", ".csv");

  private final String mediaType;
  private final String extension;

  ExportFormat(String mediaType, String extension) {
    this.mediaType = mediaType;
    this.extension = extension;
  }

  /** Returns the media type to send, e.g. {@code text/csv}. */
  public String mediaType() {
    return mediaType;
  }

  /** Returns the file extension with its dot, e.g. {@code .csv}. */
  public String extension() {
    return extension;
  }
}
