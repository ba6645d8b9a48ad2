package io.bulwark.security.tpm.internal;

import com.sun.jna.Library;
import com.sun.jna.ptr.PointerByReference;

/**
 * The tpm2-tss TCTI loader ({@code libtss2-tctildr.so.0}), bound through JNA: turns a TCTI
 * configuration string such as {@code device:/dev/tpmrm0} or {@code swtpm:host=127.0.0.1,port=2321}
 * into a transport context for ESAPI. Used by {@link TpmConnection}.
 */
public interface TctiLoaderLibrary extends Library {

  int Tss2_TctiLdr_Initialize(String nameConf, PointerByReference context);

  void Tss2_TctiLdr_Finalize(PointerByReference context);
}
