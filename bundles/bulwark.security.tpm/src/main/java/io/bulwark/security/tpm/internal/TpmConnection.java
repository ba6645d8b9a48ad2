package io.bulwark.security.tpm.internal;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.ByteByReference;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import io.bulwark.security.tpm.internal.WireFormat.Type;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.function.IntSupplier;

/**
 * One ESAPI context over one TCTI connection to the TPM, with the commands the key sealer needs.
 * Every transient object or session it returns must be flushed by the caller ({@link #flush});
 * {@link #close} releases the context and the connection. A TPM that was not started yet
 * (TPM_RC_INITIALIZE) is started with TPM2_Startup(CLEAR) and the command retried. Not thread-safe.
 */
final class TpmConnection implements AutoCloseable {

  static final int TR_NONE = 0xfff;
  static final int TR_PASSWORD = 0x0ff;
  static final int TR_OWNER = 0x101;

  private static final System.Logger LOG = System.getLogger(TpmConnection.class.getName());
  private static final byte SESSION_HMAC = 0x00;
  private static final byte SESSION_POLICY = 0x01;
  private static final byte SESSION_TRIAL = 0x03;
  private static final byte CONTINUE_SESSION = 0x01;
  private static final byte ENCRYPT_COMMAND = 0x20;
  private static final byte ENCRYPT_RESPONSE = 0x40;

  /** The primary storage key, loaded as a transient object. */
  record StorageKey(int handle, byte[] name) {}

  /** The public and private areas of a sealed data object, in wire format. */
  record SealedObject(byte[] publicArea, byte[] privateArea) {}

  private final EsysLibrary esys;
  private final TctiLoaderLibrary tctiLoader;
  private final WireFormat wire;
  private final TpmErrors errors;
  private final PointerByReference tcti;
  private final PointerByReference context;

  private TpmConnection(Tss2Libraries tss, TpmErrors errors, PointerByReference tcti) {
    this.esys = tss.esys();
    this.tctiLoader = tss.tctiLoader();
    this.wire = tss.wireFormat();
    this.errors = errors;
    this.tcti = tcti;
    this.context = new PointerByReference();
  }

  /**
   * Opens the TCTI named by {@code errors.tcti()} and an ESAPI context on it.
   *
   * @throws IllegalStateException if the TPM cannot be reached (the message says what to check)
   */
  static TpmConnection open(Tss2Libraries tss, TpmErrors errors) {
    PointerByReference tcti = new PointerByReference();
    int rc = tss.tctiLoader().Tss2_TctiLdr_Initialize(errors.tcti(), tcti);
    if (rc != 0) {
      throw errors.unreachable(rc);
    }
    TpmConnection connection = new TpmConnection(tss, errors, tcti);
    rc = tss.esys().Esys_Initialize(connection.context, tcti.getValue(), null);
    if (rc != 0) {
      connection.close();
      throw errors.refused("open an ESAPI context", rc);
    }
    return connection;
  }

  /** Creates the storage key under the owner hierarchy from the fixed template. */
  StorageKey createStorageKey() {
    IntByReference handle = new IntByReference();
    PointerByReference outPublic = new PointerByReference();
    try (Memory sensitive =
            wire.toStruct(Type.TPM2B_SENSITIVE_CREATE, TpmTemplates.sensitive(new byte[0]));
        Memory template = wire.toStruct(Type.TPM2B_PUBLIC, TpmTemplates.storageKey());
        Memory outsideInfo = WireFormat.empty();
        Memory creationPcr = WireFormat.empty()) {
      check(
          "create the storage key",
          () ->
              esys.Esys_CreatePrimary(
                  ctx(),
                  TR_OWNER,
                  TR_PASSWORD,
                  TR_NONE,
                  TR_NONE,
                  sensitive,
                  template,
                  outsideInfo,
                  creationPcr,
                  handle,
                  outPublic,
                  null,
                  null,
                  null));
    }
    try {
      return new StorageKey(
          handle.getValue(), name(wire.toWire(Type.TPM2B_PUBLIC, outPublic.getValue())));
    } finally {
      esys.Esys_Free(outPublic.getValue());
    }
  }

  /** Returns the policy digest of a PolicyPCR over the current values of {@code pcrs}. */
  byte[] pcrPolicyDigest(PcrSelection pcrs) {
    int trial = startSession(TR_NONE, SESSION_TRIAL, TpmTemplates.noCipher(), (byte) 0);
    try {
      policyPcr(trial, pcrs);
      PointerByReference digest = new PointerByReference();
      check(
          "compute the PCR policy",
          () -> esys.Esys_PolicyGetDigest(ctx(), trial, TR_NONE, TR_NONE, TR_NONE, digest));
      try {
        return sized(digest.getValue());
      } finally {
        esys.Esys_Free(digest.getValue());
      }
    } finally {
      flush(trial);
    }
  }

  /**
   * Starts a session salted with {@code key}, so that the secret crosses the bus encrypted with
   * AES-128-CFB: in the command ({@code commandSecret}) or in the response.
   */
  int startEncryptedSession(int key, boolean policy, boolean commandSecret) {
    byte attributes =
        (byte) (CONTINUE_SESSION | (commandSecret ? ENCRYPT_COMMAND : ENCRYPT_RESPONSE));
    return startSession(
        key, policy ? SESSION_POLICY : SESSION_HMAC, TpmTemplates.aes128Cfb(), attributes);
  }

  /** Extends the policy of {@code session} with the current values of {@code pcrs}. */
  void policyPcr(int session, PcrSelection pcrs) {
    try (Memory digest = WireFormat.empty();
        Memory selection =
            wire.toStruct(Type.TPML_PCR_SELECTION, TpmTemplates.pcrSelectionList(pcrs))) {
      check(
          "apply the PCR policy",
          () -> esys.Esys_PolicyPCR(ctx(), session, TR_NONE, TR_NONE, TR_NONE, digest, selection));
    }
  }

  /** Seals {@code secret} under {@code parent}, authorized and encrypted by {@code session}. */
  SealedObject create(int parent, int session, byte[] template, byte[] secret) {
    byte[] sensitiveWire = TpmTemplates.sensitive(secret);
    Memory sensitive = null;
    PointerByReference outPrivate = new PointerByReference();
    PointerByReference outPublic = new PointerByReference();
    try (Memory inPublic = wire.toStruct(Type.TPM2B_PUBLIC, template);
        Memory outsideInfo = WireFormat.empty();
        Memory creationPcr = WireFormat.empty()) {
      sensitive = wire.toStruct(Type.TPM2B_SENSITIVE_CREATE, sensitiveWire);
      Memory in = sensitive;
      check(
          "seal the key",
          () ->
              esys.Esys_Create(
                  ctx(),
                  parent,
                  session,
                  TR_NONE,
                  TR_NONE,
                  in,
                  inPublic,
                  outsideInfo,
                  creationPcr,
                  outPrivate,
                  outPublic,
                  null,
                  null,
                  null));
      return new SealedObject(
          wire.toWire(Type.TPM2B_PUBLIC, outPublic.getValue()),
          wire.toWire(Type.TPM2B_PRIVATE, outPrivate.getValue()));
    } finally {
      Arrays.fill(sensitiveWire, (byte) 0);
      if (sensitive != null) {
        sensitive.clear();
        sensitive.close();
      }
      esys.Esys_Free(outPrivate.getValue());
      esys.Esys_Free(outPublic.getValue());
    }
  }

  /**
   * Loads a sealed object under {@code parent}; returns its transient handle.
   *
   * @throws IllegalStateException if the areas are malformed or the TPM refuses them
   */
  int load(int parent, SealedObject object) {
    IntByReference handle = new IntByReference();
    Memory inPublic = null;
    Memory inPrivate = null;
    try {
      inPublic = wire.toStruct(Type.TPM2B_PUBLIC, object.publicArea());
      inPrivate = wire.toStruct(Type.TPM2B_PRIVATE, object.privateArea());
    } catch (IllegalArgumentException e) {
      close(inPublic);
      throw new IllegalStateException(
          "The sealed key blob is damaged: "
              + e.getMessage()
              + ". Restore it from its backup copy.");
    }
    try {
      Memory pub = inPublic;
      Memory priv = inPrivate;
      int rc =
          started(
              () ->
                  esys.Esys_Load(ctx(), parent, TR_PASSWORD, TR_NONE, TR_NONE, priv, pub, handle));
      if (rc != 0) {
        throw errors.refusedBlob("load the sealed key", rc);
      }
      return handle.getValue();
    } finally {
      close(inPublic);
      close(inPrivate);
    }
  }

  /** Returns the data sealed in the loaded object, authorized by {@code session}. */
  byte[] unseal(int object, int session) {
    PointerByReference outData = new PointerByReference();
    check(
        "unseal the key",
        () -> esys.Esys_Unseal(ctx(), object, session, TR_NONE, TR_NONE, outData));
    Pointer data = outData.getValue();
    try {
      return sized(data);
    } finally {
      data.setMemory(0, 2 + TpmTemplates.MAX_SECRET_BYTES, (byte) 0);
      esys.Esys_Free(data);
    }
  }

  /** Extends SHA-256 PCR {@code index} with {@code digest}. */
  void extendPcr(int index, byte[] digest) {
    try (Memory digests =
        wire.toStruct(Type.TPML_DIGEST_VALUES, TpmTemplates.sha256Digest(digest))) {
      check(
          "extend PCR " + index,
          () -> esys.Esys_PCR_Extend(ctx(), index, TR_PASSWORD, TR_NONE, TR_NONE, digests));
    }
  }

  /** Flushes a transient object or session; a failure is logged, never thrown. */
  void flush(int handle) {
    int rc = esys.Esys_FlushContext(ctx(), handle);
    if (rc != 0) {
      LOG.log(
          Level.WARNING,
          "Could not flush a transient TPM handle on {0}: {1}",
          errors.tcti(),
          errors.explain(rc));
    }
  }

  @Override
  public void close() {
    if (context.getValue() != null) {
      esys.Esys_Finalize(context);
    }
    tctiLoader.Tss2_TctiLdr_Finalize(tcti);
  }

  private int startSession(int key, byte type, byte[] symmetric, byte attributes) {
    IntByReference handle = new IntByReference();
    try (Memory cipher = wire.toStruct(Type.TPMT_SYM_DEF, symmetric)) {
      check(
          "start an authorization session",
          () ->
              esys.Esys_StartAuthSession(
                  ctx(),
                  key,
                  TR_NONE,
                  TR_NONE,
                  TR_NONE,
                  TR_NONE,
                  null,
                  type,
                  cipher,
                  TpmTemplates.ALG_SHA256,
                  handle));
    }
    int session = handle.getValue();
    if (attributes != 0) {
      int rc = esys.Esys_TRSess_SetAttributes(ctx(), session, attributes, (byte) 0xff);
      if (rc != 0) {
        flush(session);
        throw errors.refused("set the session attributes", rc);
      }
    }
    return session;
  }

  /**
   * Runs TPM2_GetCapability and returns its TPMS_CAPABILITY_DATA in wire format, positioned after
   * the capability selector. Read by {@link TpmCapabilities}.
   */
  ByteBuffer capability(int capability, int property, int count) {
    ByteByReference more = new ByteByReference();
    PointerByReference data = new PointerByReference();
    check(
        "report its capabilities",
        () ->
            esys.Esys_GetCapability(
                ctx(), TR_NONE, TR_NONE, TR_NONE, capability, property, count, more, data));
    try {
      ByteBuffer buffer = ByteBuffer.wrap(wire.toWire(Type.TPMS_CAPABILITY_DATA, data.getValue()));
      buffer.getInt();
      return buffer;
    } finally {
      esys.Esys_Free(data.getValue());
    }
  }

  private void check(String action, IntSupplier command) {
    int rc = started(command);
    if (rc != 0) {
      throw errors.refused(action, rc);
    }
  }

  /** Runs {@code command}; if the TPM was not started, starts it and runs the command again. */
  private int started(IntSupplier command) {
    int rc = command.getAsInt();
    if (rc != TpmErrors.RC_INITIALIZE) {
      return rc;
    }
    LOG.log(Level.INFO, "TPM at {0} was not started: sending TPM2_Startup(CLEAR)", errors.tcti());
    int started = esys.Esys_Startup(ctx(), (short) 0);
    if (started != 0 && started != TpmErrors.RC_INITIALIZE) {
      throw errors.refused("start up", started);
    }
    return command.getAsInt();
  }

  private static void close(Memory memory) {
    if (memory != null) {
      memory.close();
    }
  }

  private Pointer ctx() {
    return context.getValue();
  }

  /** Reads a TPM2B (UINT16 size, then the bytes) from native memory. */
  private static byte[] sized(Pointer tpm2b) {
    int size = tpm2b.getShort(0) & 0xffff;
    return tpm2b.getByteArray(2, size);
  }

  /** Returns the TPM name of a public area: nameAlg, then SHA-256 of the TPMT_PUBLIC. */
  private static byte[] name(byte[] publicWire) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      sha256.update(publicWire, 2, publicWire.length - 2);
      return ByteBuffer.allocate(2 + TpmTemplates.SHA256_BYTES)
          .putShort(TpmTemplates.ALG_SHA256)
          .put(sha256.digest())
          .array();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
