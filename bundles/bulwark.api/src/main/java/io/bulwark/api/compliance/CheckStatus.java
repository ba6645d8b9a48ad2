package io.bulwark.api.compliance;

/** A control's status after its check, as STIG Viewer and STIG Manager know it. */
public enum CheckStatus {
  /** The check proved the control met. */
  NOT_A_FINDING("NotAFinding"),
  /** The check found the control not met. */
  OPEN("Open"),
  /** The control's subject does not exist here. */
  NOT_APPLICABLE("Not_Applicable"),
  /** The check could not decide: a person must look (the summary says why). */
  NOT_REVIEWED("Not_Reviewed");

  private final String ckl;

  CheckStatus(String ckl) {
    this.ckl = ckl;
  }

  /** Returns the status as a STIG Viewer checklist (CKL) spells it, e.g. {@code NotAFinding}. */
  public String ckl() {
    return ckl;
  }
}
