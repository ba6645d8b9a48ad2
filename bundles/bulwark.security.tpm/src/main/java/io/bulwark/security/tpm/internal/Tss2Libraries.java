package io.bulwark.security.tpm.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * The tpm2-tss 3.x libraries the TPM key sealer binds through JNA: ESAPI, the TCTI loader, the
 * response-code decoder and the marshalling library. Loaded once per component activation; a
 * missing library fails activation with the file and the package that provides it.
 *
 * @param esys the Enhanced System API
 * @param tctiLoader the TCTI loader
 * @param responseCodes the response-code decoder
 * @param wireFormat the marshalling functions
 */
record Tss2Libraries(
    EsysLibrary esys,
    TctiLoaderLibrary tctiLoader,
    ResponseCodeLibrary responseCodes,
    WireFormat wireFormat) {

  /**
   * Loads the four libraries from the system library path.
   *
   * @throws IllegalStateException naming the missing library and the package to install
   */
  static Tss2Libraries load() {
    return new Tss2Libraries(
        bind("libtss2-esys.so.0", EsysLibrary.class, "TPM 2.0 ESAPI", "libtss2-esys-3.0.2-0"),
        bind("libtss2-tctildr.so.0", TctiLoaderLibrary.class, "TCTI loader", "libtss2-tctildr0"),
        bind("libtss2-rc.so.0", ResponseCodeLibrary.class, "response codes", "libtss2-rc0"),
        new WireFormat(library("libtss2-mu.so.0", "marshalling", "libtss2-mu0")));
  }

  /**
   * Binds {@code type} to the shared library {@code file}.
   *
   * @throws IllegalStateException naming the library and the package to install
   */
  static <T extends Library> T bind(String file, Class<T> type, String role, String debianPackage) {
    try {
      return Native.load(file, type);
    } catch (UnsatisfiedLinkError e) {
      throw missing(file, role, debianPackage, e);
    }
  }

  private static NativeLibrary library(String file, String role, String debianPackage) {
    try {
      return NativeLibrary.getInstance(file);
    } catch (UnsatisfiedLinkError e) {
      throw missing(file, role, debianPackage, e);
    }
  }

  private static IllegalStateException missing(
      String file, String role, String debianPackage, UnsatisfiedLinkError cause) {
    return new IllegalStateException(
        "Cannot load "
            + file
            + " (tpm2-tss "
            + role
            + "), needed to seal keys to the TPM: install tpm2-tss 3.x (Debian 12: apt install "
            + debianPackage
            + "). "
            + cause.getMessage(),
        cause);
  }
}
