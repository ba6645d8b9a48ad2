package io.bulwark.api.security;

import io.bulwark.api.audit.AuditUnavailableException;
import java.time.Duration;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The appliance's local accounts: the first administrator, logins with lockout, browser sessions
 * with an idle timeout, password changes, user administration and API tokens for automation. Every
 * login, logout, expiry and change is recorded in the audit log, never with a password or a token
 * secret; if the audit log cannot record a change, the change is not made (fail secure). Provided
 * by the security bundle; used by the web bundle and by the first start. Thread-safe.
 *
 * <p>Methods that check or hash a password take a few hundred milliseconds of CPU on purpose: do
 * not call them on an event loop. Passwords are {@code char[]} so that callers can clear them; this
 * service never clears or keeps the caller's arrays. {@code source} is the client address, or
 * "local". Whether {@code actor} may do what it asks is checked by the caller (the web bundle's
 * role checks); this service records who did it.
 */
@ProviderType
public interface Accounts {

  /**
   * Creates the first administrator, "admin" with role ADMIN, if no account exists yet; otherwise
   * does nothing and returns empty. With {@code installerPassword} (the installer's
   * BULWARK_ADMIN_PASSWORD) the account uses that password and need not change it. Without it, a
   * 20-character password meeting the {@linkplain PasswordPolicy#standard() policy} is generated
   * and returned once, for the caller to show on the console, and must be changed at the first
   * login. The password is never logged. Audited as {@code account.bootstrap}.
   *
   * @return the generated password (the caller should clear it once shown), or empty if the
   *     installer's password was used or an account already existed
   * @throws IllegalArgumentException if the installer's password breaks the policy; the message
   *     names BULWARK_ADMIN_PASSWORD and every broken rule, never the password
   * @throws AuditUnavailableException if the audit log cannot record it; no account is created
   */
  Optional<char[]> bootstrapAdmin(Optional<char[]> installerPassword);

  /**
   * Checks the user's password and opens a session. The check costs the same for unknown users as
   * for known ones. After {@code lockoutAttempts} failures within {@code lockoutWindowSeconds} the
   * account is locked for {@code lockoutSeconds}, and a locked account is refused even with the
   * right password. A success clears the failures. Every attempt is audited as {@code
   * session.login} (SUCCESS, FAILURE, or DENIED for a locked or disabled account).
   *
   * @param user the user name as typed; null counts as unknown
   * @param password the password as typed; null counts as wrong
   * @param source the client address, or "local"
   * @return the new session; never null
   * @throws AuthenticationException if the login is refused, including when the audit log cannot
   *     record the success
   */
  Session login(String user, char[] password, String source);

  /**
   * Returns the session with this id and marks it used now, or empty if there is none or it has
   * been idle for {@code sessionIdleSeconds} or more; an idle session is then ended and audited as
   * {@code session.expired}. Cheap: may be called on an event loop.
   *
   * @param id the session id from the client; null or unknown gives empty
   */
  Optional<Session> session(String id);

  /**
   * Ends the session with this id, if there is one, and audits it as {@code session.logout}. The
   * session ends even if the audit log is unavailable.
   *
   * @return true if a session was ended
   * @throws AuditUnavailableException if the audit log could not record the logout (the session is
   *     ended nevertheless)
   */
  boolean logout(String id, String source);

  /**
   * Changes a user's password after checking the current one (a wrong current password counts
   * towards lockout, like a failed login). The new password must meet the {@linkplain
   * PasswordPolicy#standard() policy}, must not contain the user name and must differ from the
   * current one. Clears mustChangePassword, also in the user's open sessions. Audited as {@code
   * password.change}.
   *
   * @throws AuthenticationException if the user is unknown, locked or disabled, or the current
   *     password is wrong
   * @throws IllegalArgumentException if the new password is refused; the message lists every rule
   *     it breaks, never the password
   * @throws AuditUnavailableException if the audit log cannot record it; the password is unchanged
   */
  void changePassword(String user, char[] current, char[] next, String source);

  /**
   * Changes a user's password as {@link #changePassword(String, char[], char[], String)} does, and
   * ends every other session of the user: only the session {@code keepSession} (the one that made
   * the change; null for none) stays open. Each ended session is audited as {@code session.ended}.
   *
   * @since 1.2
   */
  void changePassword(String user, char[] current, char[] next, String source, String keepSession);

  /**
   * Creates a user that must change {@code initialPassword} at the first login. Audited as {@code
   * user.create}.
   *
   * @return the account as stored
   * @throws IllegalArgumentException if the name is not a valid user name or is taken, or the
   *     password breaks the policy (the message says which rules, never the password)
   * @throws AuditUnavailableException if the audit log cannot record it; no user is created
   */
  UserAccount createUser(
      String actor, String name, Role role, char[] initialPassword, String source);

  /**
   * Lifts the user's lockout, the account-wide one and those of single addresses, and forgets the
   * failed logins that counted towards them. Audited as {@code user.unlock} before it takes effect.
   *
   * @return the account as stored, or empty if there is no such user
   * @throws AuditUnavailableException if the audit log cannot record it; nothing is unlocked
   * @since 1.2
   */
  Optional<UserAccount> unlockUser(String actor, String name, String source);

  /**
   * Deletes a user, ends the user's sessions and revokes the API tokens the user created (each
   * audited as {@code token.revoke}). Audited as {@code user.delete}.
   *
   * @return false if there was no such user
   * @throws IllegalStateException if it is the last administrator
   * @throws AuditUnavailableException if the audit log cannot record it; the user is kept
   */
  boolean deleteUser(String actor, String name, String source);

  /**
   * Creates an API token; the token string {@code bwk_<id>_<secret>} (the secret is 32 random
   * bytes, base64url) is returned once and never stored: only an HMAC-SHA-256 of the secret, keyed
   * by a pepper kept in the secret store, is. The validity is capped at {@code tokenMaxDays}.
   * Audited as {@code token.create}.
   *
   * @param name a name for people, 1 to 64 characters
   * @param validity how long the token stays valid; positive
   * @throws IllegalArgumentException if the name or validity is unusable
   * @throws AuditUnavailableException if the audit log cannot record it; no token is created
   */
  IssuedToken createToken(String actor, String name, Role role, Duration validity, String source);

  /**
   * Returns the principal of a valid API token, or empty if the token is malformed, unknown,
   * expired or revoked. The secret is compared in constant time. Not audited (the request it
   * authenticates is). Cheap: may be called on an event loop once the pepper has been read.
   *
   * @param bearer the token string as sent after "Bearer "; null gives empty
   */
  Optional<Principal> authenticateToken(String bearer);

  /**
   * Revokes the API token with this id; it cannot be used again. Audited as {@code token.revoke}.
   *
   * @return false if there is no such token
   * @throws AuditUnavailableException if the audit log cannot record it; the token stays valid
   */
  boolean revokeToken(String actor, String id, String source);
}
