package io.bulwark.security.tpm.internal;

import com.sun.jna.Library;

/**
 * The tpm2-tss response-code decoder ({@code libtss2-rc.so.0}), bound through JNA: turns a TSS2
 * response code into text such as {@code tpm:session(1):a policy check failed}. Used by {@link
 * TpmErrors}.
 */
public interface ResponseCodeLibrary extends Library {

  String Tss2_RC_Decode(int rc);
}
