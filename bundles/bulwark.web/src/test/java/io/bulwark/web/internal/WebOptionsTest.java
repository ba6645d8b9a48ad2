package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

/**
 * Configuration checks: defaults, bad values named in the error, and what activation does with
 * them.
 */
class WebOptionsTest {

  @Test
  void defaultsAreAllInterfacesOnPort8080() {
    WebOptions options = new WebOptions("0.0.0.0", 8080);

    assertThat(options.wildcard()).isTrue();
    assertThat(Listener.plainHttp(options).serverOptions().getPort()).isEqualTo(8080);
    assertThat(Listener.plainHttp(options).serverOptions().getHost()).isEqualTo("0.0.0.0");
  }

  @Test
  void badPortsNameTheProperty() {
    assertThatThrownBy(() -> new WebOptions("127.0.0.1", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("httpsPort");
    assertThatThrownBy(() -> new WebOptions("127.0.0.1", 65536))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("httpsPort");
  }

  @Test
  void badAddressesNameTheProperty() {
    for (String bad : new String[] {null, "", "   ", "bad host", "http://x", "-lead"}) {
      assertThatThrownBy(() -> new WebOptions(bad, 8080))
          .as(String.valueOf(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("bindAddress");
    }
  }

  @Test
  void ipv6AddressesMayComeInBrackets() {
    assertThat(new WebOptions("[::1]", 0).bindAddress()).isEqualTo("::1");
    assertThat(new WebOptions("::", 0).wildcard()).isTrue();
    assertThat(new WebOptions("fe80::1%eth0", 0).bindAddress()).isEqualTo("fe80::1%eth0");
    assertThat(Listener.plainHttp(new WebOptions("::1", 9000)).url(9000))
        .isEqualTo("http://[::1]:9000/");
  }

  @Test
  void activationFailsOnInvalidConfiguration() {
    FleetFixture fixture = new FleetFixture();
    Vertx vertx = Vertx.vertx();
    try {
      assertThatThrownBy(() -> WebOptions.from(new TestFramework.Config("127.0.0.1", 70000)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("httpsPort");
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().join();
    }
  }

  @Test
  void aBusyPortFailsActivationWithAHint() {
    FleetFixture fixture = new FleetFixture();
    Vertx vertx = Vertx.vertx();
    WebServer first = fixture.start(vertx, Listener.plainHttp(new WebOptions("127.0.0.1", 0)));
    try {
      assertThatThrownBy(
              () ->
                  fixture.start(
                      vertx, Listener.plainHttp(new WebOptions("127.0.0.1", first.port()))))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(String.valueOf(first.port()))
          .hasMessageContaining("httpsPort");
    } finally {
      first.stop();
      vertx.close().toCompletionStage().toCompletableFuture().join();
    }
  }
}
