"""An MkDocs plugin that puts the Ask box on every page of a built site.

In ``mkdocs.yml``::

    plugins:
      - search
      - citeline:
          url: https://answers.example.org        # where `citeline serve` runs
          token_url: /citeline-token              # guarded servers: the site's token URL

Every page, and every HTML page the theme renders from its own templates (404.html), ends
its body with ``<citeline-ask floating>`` and the module script that loads it from ``url``.
Registered as the ``citeline`` plugin through the ``mkdocs.plugins`` entry point. MkDocs is
imported here only; it is the owner's build tool, and nothing else in citeline imports this
module.
"""

from __future__ import annotations

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.pages import Page

from citeline.embed import EmbedError, add_to_page, snippet


class CitelineConfig(Config):  # type: ignore[no-untyped-call]  # MkDocs leaves it untyped
    url = config_options.Type(str)
    token_url = config_options.Optional(config_options.Type(str))


class CitelinePlugin(BasePlugin[CitelineConfig]):  # type: ignore[no-untyped-call]
    """Adds the Ask box before ``</body>`` of every page MkDocs writes."""

    html = ""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        try:
            self.html = snippet(
                self.config.url, self.config.token_url, setting="The citeline plugin's url"
            )
        except EmbedError as error:
            raise PluginError(str(error)) from None
        return config

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        return add_to_page(output, self.html)

    def on_post_template(
        self, output_content: str, /, *, template_name: str, config: MkDocsConfig
    ) -> str | None:
        if not template_name.endswith(".html"):
            return output_content  # sitemap.xml and the like are no pages
        return add_to_page(output_content, self.html)
