package io.bulwark.security.tpm.internal;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.ByteByReference;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The tpm2-tss Enhanced System API calls the TPM key sealer uses ({@code libtss2-esys.so.0}, ABI
 * 3.x), bound through JNA. Structures travel as pointers to native memory filled by {@link
 * WireFormat}; {@code ESYS_TR} handles are {@code int}. Not thread-safe: one ESYS context serves
 * one caller at a time.
 */
public interface EsysLibrary extends Library {

  int Esys_Initialize(PointerByReference esysContext, Pointer tcti, Pointer abiVersion);

  void Esys_Finalize(PointerByReference esysContext);

  int Esys_Startup(Pointer esysContext, short startupType);

  int Esys_GetCapability(
      Pointer esysContext,
      int shandle1,
      int shandle2,
      int shandle3,
      int capability,
      int property,
      int propertyCount,
      ByteByReference moreData,
      PointerByReference capabilityData);

  int Esys_CreatePrimary(
      Pointer esysContext,
      int primaryHandle,
      int shandle1,
      int shandle2,
      int shandle3,
      Pointer inSensitive,
      Pointer inPublic,
      Pointer outsideInfo,
      Pointer creationPcr,
      IntByReference objectHandle,
      PointerByReference outPublic,
      PointerByReference creationData,
      PointerByReference creationHash,
      PointerByReference creationTicket);

  int Esys_Create(
      Pointer esysContext,
      int parentHandle,
      int shandle1,
      int shandle2,
      int shandle3,
      Pointer inSensitive,
      Pointer inPublic,
      Pointer outsideInfo,
      Pointer creationPcr,
      PointerByReference outPrivate,
      PointerByReference outPublic,
      PointerByReference creationData,
      PointerByReference creationHash,
      PointerByReference creationTicket);

  int Esys_Load(
      Pointer esysContext,
      int parentHandle,
      int shandle1,
      int shandle2,
      int shandle3,
      Pointer inPrivate,
      Pointer inPublic,
      IntByReference objectHandle);

  int Esys_Unseal(
      Pointer esysContext,
      int itemHandle,
      int shandle1,
      int shandle2,
      int shandle3,
      PointerByReference outData);

  int Esys_StartAuthSession(
      Pointer esysContext,
      int tpmKey,
      int bind,
      int shandle1,
      int shandle2,
      int shandle3,
      Pointer nonceCaller,
      byte sessionType,
      Pointer symmetric,
      short authHash,
      IntByReference sessionHandle);

  int Esys_TRSess_SetAttributes(Pointer esysContext, int session, byte flags, byte mask);

  int Esys_PolicyPCR(
      Pointer esysContext,
      int policySession,
      int shandle1,
      int shandle2,
      int shandle3,
      Pointer pcrDigest,
      Pointer pcrs);

  int Esys_PolicyGetDigest(
      Pointer esysContext,
      int policySession,
      int shandle1,
      int shandle2,
      int shandle3,
      PointerByReference policyDigest);

  int Esys_PCR_Extend(
      Pointer esysContext,
      int pcrHandle,
      int shandle1,
      int shandle2,
      int shandle3,
      Pointer digests);

  int Esys_FlushContext(Pointer esysContext, int flushHandle);

  void Esys_Free(Pointer pointer);
}
