package io.bulwark.runtime.internal;

/** Says which setting has an unusable value, what the value was and what is expected. */
final class InvalidSettingException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String setting;

  InvalidSettingException(String setting, String value, String expected) {
    super("setting " + setting + "='" + value + "' is not usable: " + expected);
    this.setting = setting;
  }

  String setting() {
    return setting;
  }
}
