package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditVerification;

/**
 * What a pass over an audit log found: the verdict on its complete lines, the last record that
 * could be read (where appending continues), the sparse index built on the way, and the bytes after
 * the last line end, if any (a torn tail).
 *
 * @param verdict the chain check of the complete lines
 * @param lastSequence the sequence number of the last readable record, 0 if none
 * @param lastHash the hash of that record ({@link StoredRecord#GENESIS} if none)
 * @param linesEnd the offset just after the last line end
 * @param tailLength how many bytes follow the last line end
 */
record ChainReport(
    AuditVerification verdict,
    long lastSequence,
    String lastHash,
    long linesEnd,
    long tailLength,
    SequenceIndex index) {

  boolean torn() {
    return tailLength > 0;
  }

  /**
   * Returns the verdict with a torn tail counted as a break when the lines themselves are intact.
   */
  AuditVerification verdictWithTail() {
    if (!torn() || !verdict.intact()) {
      return verdict;
    }
    long sequence = lastSequence + 1;
    return new AuditVerification(
        false,
        verdict.recordsChecked(),
        sequence,
        "record "
            + sequence
            + " torn: "
            + tailLength
            + " bytes at byte offset "
            + linesEnd
            + " have no line end (an append cut short)");
  }
}
