package io.bulwark.web.internal;

import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.TokenRepository;
import io.bulwark.api.security.UserRepository;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The routes of local accounts: users ({@code /api/v1/users}: list for admins and auditors, create,
 * delete and unlock for admins) and API tokens ({@code /api/v1/tokens}, admins).
 */
@Component(service = RouteContributor.class)
public final class AccountRoutes implements RouteContributor {
  private final List<ApiRoute> routes;

  @Activate
  public AccountRoutes(
      @Reference Accounts accounts,
      @Reference UserRepository users,
      @Reference TokenRepository tokens) {
    this(accounts, users, tokens, Clock.systemUTC());
  }

  AccountRoutes(Accounts accounts, UserRepository users, TokenRepository tokens, Clock clock) {
    UsersResource u = new UsersResource(accounts, users, clock);
    TokensResource t = new TokensResource(accounts, tokens, clock);
    Set<Role> admin = Set.of(Role.ADMIN);
    Set<Role> auditors = Set.of(Role.ADMIN, Role.AUDITOR);
    this.routes =
        List.of(
            ApiRoute.get("/api/v1/users", auditors, u::users),
            ApiRoute.post("/api/v1/users", admin, u::createUser),
            ApiRoute.delete("/api/v1/users/:name", admin, u::deleteUser),
            ApiRoute.post("/api/v1/users/:name/unlock", admin, u::unlockUser),
            ApiRoute.get("/api/v1/tokens", admin, t::list),
            ApiRoute.post("/api/v1/tokens", admin, t::create),
            ApiRoute.delete("/api/v1/tokens/:id", admin, t::revoke));
  }

  @Override
  public String name() {
    return "accounts";
  }

  @Override
  public List<ApiRoute> routes() {
    return routes;
  }
}
