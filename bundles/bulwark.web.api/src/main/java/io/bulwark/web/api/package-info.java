/**
 * How a bundle plugs into the admin plane without wiring to the web implementation: it registers a
 * {@link io.bulwark.web.api.RouteContributor} to add routes to the JSON API (each with the roles it
 * admits), a {@link io.bulwark.web.api.PageContributor} to add pages to the web UI (served from its
 * own bundle), and an {@link io.bulwark.web.api.EventTopic} to add a topic to the server-sent event
 * stream, and a {@link io.bulwark.web.api.MetricsSource} to add metric families to {@code
 * /metrics}. They appear when the service is registered and go when it goes; a route whose
 * contributor is gone answers 503 with a problem until it returns. {@link
 * io.bulwark.web.api.ApiRequest} and {@link io.bulwark.web.api.ApiProblem} are what a route handler
 * uses to read the caller and answer.
 */
@Export
@Version("1.3.0")
package io.bulwark.web.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
