package io.bulwark.bmc.ipmi.internal;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcDriver;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The IPMI 2.0 over LAN BMC driver (RMCP+ on UDP, default port 623). It asks the BMC's channel what
 * it offers before using any credential and logs in only with cipher suite 17 (RAKP-HMAC-SHA256,
 * HMAC-SHA256-128, AES-CBC-128), all crypto from the BCFIPS provider; a BMC that offers only weaker
 * suites is refused with the suites it lists. Each connection has its own socket, keys and random
 * source, so connections may be used at once on different threads.
 */
@Component(
    service = BmcDriver.class,
    configurationPid = "io.bulwark.bmc.ipmi",
    configurationPolicy = ConfigurationPolicy.OPTIONAL,
    property = "bmc.protocol=ipmi")
@Designate(ocd = IpmiConfig.class)
public final class IpmiDriver implements BmcDriver {
  private final IpmiOptions options;
  private final CipherSuite suite;

  @Activate
  public IpmiDriver(IpmiConfig config) {
    this(IpmiOptions.of(config), CipherSuite.SUITE_17);
  }

  /**
   * A driver with these settings. {@code suite} is {@link CipherSuite#SUITE_17} everywhere but in
   * this bundle's tests, which also run the protocol at suite 3 against {@code ipmi_sim} (no
   * SHA-256 there).
   */
  IpmiDriver(IpmiOptions options, CipherSuite suite) {
    this.options = options;
    this.suite = suite;
  }

  @Override
  public BmcProtocol protocol() {
    return BmcProtocol.IPMI;
  }

  /** IPMI has no certificates: always "". */
  @Override
  public String presentedFingerprint(BmcEndpoint endpoint) {
    return "";
  }

  @Override
  public BmcConnection connect(BmcEndpoint endpoint, BmcCredentials credentials)
      throws BmcException {
    String bmc = endpoint.address() + ":" + endpoint.port();
    char[] password = credentials.password();
    RmcpSession session = null;
    try {
      SecureRandom random = random(bmc);
      session =
          new RmcpSession(
              new LanChannel(
                  bmc, endpoint.address(), endpoint.port(), options.request(), options.retries()));
      ChannelCapabilities.require(session, suite);
      RakpHandshake.establish(session, suite, random, credentials.username(), password);
      IpmiConnection connection = new IpmiConnection(session, options);
      session = null;
      return connection;
    } finally {
      Arrays.fill(password, '\0');
      if (session != null) {
        session.close();
      }
    }
  }

  private static SecureRandom random(String bmc) throws BmcException {
    try {
      return SecureRandom.getInstance("DEFAULT", SessionCrypto.PROVIDER);
    } catch (GeneralSecurityException e) {
      throw new BmcException(
          Kind.UNSUPPORTED,
          "the appliance has no "
              + SessionCrypto.PROVIDER
              + " random source for an IPMI session with BMC "
              + bmc
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
