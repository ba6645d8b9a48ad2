package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The OpenAPI document the appliance serves at {@code /api/v1/openapi.json} describes the API it
 * really serves: it is OpenAPI 3.1.0; its operations are exactly the routes of the live route table
 * ({@code GET /api/v1/routes}, {@code :name} read as {@code {name}}), none missing and none extra;
 * each operation's {@code x-roles} are the roles its route admits, and a public route (and only
 * one) has no security requirement; every operation has a unique operationId, a summary and a 2xx
 * answer; every path template is declared as a required path parameter, and every declared path
 * parameter is in the path; and every {@code $ref} resolves inside the document.
 */
@ExtendWith(SharedAppliance.class)
class OpenApiIT {
  private static final Set<String> METHODS =
      Set.of("get", "put", "post", "delete", "patch", "head", "options", "trace");
  private static final Pattern VERTX_PARAMETER = Pattern.compile(":([A-Za-z0-9_]+)");
  private static final Pattern TEMPLATE = Pattern.compile("\\{([^}/]+)}");

  @Test
  void theDocumentDescribesExactlyTheRoutesTheApplianceServes(RunningAppliance bulwark)
      throws Exception {
    HttpResponse<String> served = bulwark.get("/api/v1/openapi.json");
    assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
    assertThat(served.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(served.headers().firstValue("Cache-Control")).hasValue("no-store");
    JsonObject document = new JsonObject(served.body());
    assertThat(document.getString("openapi")).isEqualTo("3.1.0");
    assertThat(document.getJsonObject("info").getString("title")).isEqualTo("Bulwark API");

    Map<String, JsonObject> operations = operations(document);
    Map<String, JsonObject> routes = awaitRoutes(bulwark, operations.keySet());
    List<String> problems = new ArrayList<>();

    Set<String> undocumented = new TreeSet<>(routes.keySet());
    undocumented.removeAll(operations.keySet());
    Set<String> notServed = new TreeSet<>(operations.keySet());
    notServed.removeAll(routes.keySet());
    undocumented.forEach(r -> problems.add("served but not in the document: " + r));
    notServed.forEach(r -> problems.add("in the document but not served: " + r));

    Set<String> operationIds = new HashSet<>();
    operations.forEach(
        (key, operation) -> {
          String id = operation.getString("operationId", "");
          if (id.isBlank()) {
            problems.add(key + ": no operationId");
          } else if (!operationIds.add(id)) {
            problems.add(key + ": the operationId " + id + " is taken by another operation");
          }
          if (operation.getString("summary", "").isBlank()) {
            problems.add(key + ": no summary");
          }
          JsonObject responses = operation.getJsonObject("responses", new JsonObject());
          if (responses.fieldNames().stream().noneMatch(code -> code.matches("2\\d\\d"))) {
            problems.add(key + ": no 2xx response");
          }
          JsonObject route = routes.get(key);
          if (route != null) {
            Set<String> declared = strings(operation.getJsonArray("x-roles"));
            Set<String> admitted = strings(route.getJsonArray("roles"));
            if (!declared.equals(admitted)) {
              problems.add(key + ": x-roles " + declared + ", but the route admits " + admitted);
            }
            JsonArray security = operation.getJsonArray("security");
            boolean open = security != null && security.isEmpty();
            if (route.getBoolean("public") != open) {
              problems.add(
                  key
                      + (open
                          ? ": security [] but the route needs credentials"
                          : ": the route is public but the document asks for credentials"));
            }
          }
        });

    problems.addAll(pathParameterProblems(document));
    problems.addAll(unresolvedReferences(document, document, "#"));

    assertThat(problems)
        .as(
            "%d operations in the document, %d routes served; what differs:%n%s",
            operations.size(), routes.size(), String.join(System.lineSeparator(), problems))
        .isEmpty();
  }

  /** Returns every operation of the document by "METHOD /path". */
  private static Map<String, JsonObject> operations(JsonObject document) {
    Map<String, JsonObject> operations = new TreeMap<>();
    JsonObject paths = document.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      for (String method : item.fieldNames()) {
        if (METHODS.contains(method)) {
          operations.put(
              method.toUpperCase(java.util.Locale.ROOT) + " " + path, item.getJsonObject(method));
        }
      }
    }
    return operations;
  }

  /**
   * Returns the live route table by "METHOD /path/{name}". The contributors register as their
   * bundles start, so the table is read until it holds every documented route, or has not changed
   * for ten seconds.
   */
  private static Map<String, JsonObject> awaitRoutes(
      RunningAppliance bulwark, Set<String> documented) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    Map<String, JsonObject> last = Map.of();
    long unchangedSince = System.nanoTime();
    while (true) {
      HttpResponse<String> r = bulwark.get("/api/v1/routes");
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      Map<String, JsonObject> routes = new TreeMap<>();
      for (Object o : new JsonObject(r.body()).getJsonArray("routes")) {
        JsonObject route = (JsonObject) o;
        String path = VERTX_PARAMETER.matcher(route.getString("path")).replaceAll("{$1}");
        routes.put(route.getString("method") + " " + path, route);
      }
      if (!routes.keySet().equals(last.keySet())) {
        unchangedSince = System.nanoTime();
      }
      last = routes;
      if (routes.keySet().containsAll(documented)
          || System.nanoTime() - unchangedSince > Duration.ofSeconds(10).toNanos()
          || System.nanoTime() > deadline) {
        return routes;
      }
      Thread.sleep(500);
    }
  }

  /**
   * Returns what is wrong with the path parameters: a template of a path that no required path
   * parameter declares, or a declared path parameter that is not in the path.
   */
  private static List<String> pathParameterProblems(JsonObject document) {
    List<String> problems = new ArrayList<>();
    JsonObject paths = document.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      Set<String> templates = new TreeSet<>();
      Matcher m = TEMPLATE.matcher(path);
      while (m.find()) {
        templates.add(m.group(1));
      }
      JsonObject item = paths.getJsonObject(path);
      for (String method : item.fieldNames()) {
        if (!METHODS.contains(method)) {
          continue;
        }
        String key = method.toUpperCase(java.util.Locale.ROOT) + " " + path;
        Set<String> declared = new TreeSet<>();
        List<Object> parameters = new ArrayList<>();
        item.getJsonArray("parameters", new JsonArray()).forEach(parameters::add);
        item.getJsonObject(method)
            .getJsonArray("parameters", new JsonArray())
            .forEach(parameters::add);
        for (Object p : parameters) {
          JsonObject parameter = p instanceof JsonObject o ? resolve(document, o) : null;
          if (parameter == null) {
            continue; // an unresolved $ref is reported below, with the others
          }
          if ("path".equals(parameter.getString("in"))) {
            String name = parameter.getString("name");
            declared.add(name);
            if (!templates.contains(name)) {
              problems.add(key + ": the path parameter " + name + " is not in the path");
            }
            if (!Boolean.TRUE.equals(parameter.getBoolean("required"))) {
              problems.add(key + ": the path parameter " + name + " is not required");
            }
          }
        }
        for (String template : templates) {
          if (!declared.contains(template)) {
            problems.add(key + ": {" + template + "} is not declared as a path parameter");
          }
        }
      }
    }
    return problems;
  }

  /** Returns every {@code $ref} under {@code node} that does not resolve inside the document. */
  private static List<String> unresolvedReferences(JsonObject document, Object node, String at) {
    List<String> problems = new ArrayList<>();
    if (node instanceof JsonObject o) {
      Object ref = o.getValue("$ref");
      if (ref != null && (!(ref instanceof String s) || pointer(document, s) == null)) {
        problems.add(at + ": the $ref " + ref + " does not resolve inside the document");
      }
      for (String field : o.fieldNames()) {
        problems.addAll(
            unresolvedReferences(document, o.getValue(field), at + "/" + escape(field)));
      }
    } else if (node instanceof JsonArray a) {
      for (int i = 0; i < a.size(); i++) {
        problems.addAll(unresolvedReferences(document, a.getValue(i), at + "/" + i));
      }
    }
    return problems;
  }

  /** Returns {@code o}, or what its {@code $ref} points to (null if that does not resolve). */
  private static JsonObject resolve(JsonObject document, JsonObject o) {
    for (int hops = 0; o != null && o.containsKey("$ref") && hops < 10; hops++) {
      Object target = o.getValue("$ref") instanceof String ref ? pointer(document, ref) : null;
      o = target instanceof JsonObject t ? t : null;
    }
    return o;
  }

  /** Returns what a local JSON pointer ({@code #/a/b}) names in the document, or null. */
  private static Object pointer(JsonObject document, String ref) {
    if (!ref.startsWith("#")) {
      return null;
    }
    Object node = document;
    for (String token : ref.substring(1).split("/", -1)) {
      if (token.isEmpty() && node == document) {
        continue;
      }
      String name = token.replace("~1", "/").replace("~0", "~");
      if (node instanceof JsonObject o && o.containsKey(name)) {
        node = o.getValue(name);
      } else if (node instanceof JsonArray a && name.matches("\\d+")) {
        int i = Integer.parseInt(name);
        if (i >= a.size()) {
          return null;
        }
        node = a.getValue(i);
      } else {
        return null;
      }
    }
    return node;
  }

  private static String escape(String field) {
    return field.replace("~", "~0").replace("/", "~1");
  }

  private static Set<String> strings(JsonArray array) {
    Set<String> out = new TreeSet<>();
    if (array != null) {
      array.forEach(v -> out.add(String.valueOf(v)));
    }
    return out;
  }
}
