package io.bulwark.web.api;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A bundle's pages in the web UI, registered as an OSGi service (whiteboard). The admin plane
 * serves the files of {@link #resourceRoot()} in the contributing bundle at {@code
 * /ui/<bundle-symbolic-name>/}, lists the pages in {@code GET /api/v1/ui/pages} (only those the
 * caller's role may open), and the UI adds them to its navigation; they go when the service goes.
 */
@ConsumerType
public interface PageContributor {

  /**
   * Returns the folder inside the bundle whose files are served, e.g. {@code /ui}: JavaScript
   * modules, styles, images. Nothing outside it is served.
   */
  String resourceRoot();

  /** Returns the pages; called when the contributor is bound. */
  List<UiPage> pages();
}
