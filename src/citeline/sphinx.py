"""A Sphinx extension that puts the Ask box on every page of a built HTML site.

In ``conf.py``::

    extensions = ["citeline.sphinx"]
    citeline_url = "https://answers.example.org"     # where `citeline serve` runs
    citeline_token_url = "/citeline-token"           # guarded servers: the site's token URL

Every HTML page, whatever the theme (the search and index pages too), gets one module
script that loads the component from ``citeline_url`` and adds ``<citeline-ask floating>``
to its body: a button in the corner that opens the box. Sphinx is imported here only; it is
the owner's build tool, and nothing else in citeline imports this module.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError

from citeline.embed import EmbedError, mount_script


def _add_box(app: Sphinx, config: Config) -> None:
    if not config.citeline_url:
        raise ConfigError(
            "citeline_url is not set: give the address of `citeline serve` in conf.py, "
            'e.g. citeline_url = "https://answers.example.org".'
        )
    try:
        script = mount_script(
            config.citeline_url, config.citeline_token_url or None, setting="citeline_url"
        )
    except EmbedError as error:
        raise ConfigError(str(error)) from None
    app.add_js_file(None, body=script, type="module")


def setup(app: Sphinx) -> dict[str, Any]:
    """Sphinx's entry point: the two settings, and the box on every HTML page."""
    app.add_config_value("citeline_url", "", "html", str, "Address of `citeline serve`.")
    app.add_config_value(
        "citeline_token_url", "", "html", str, "URL of the site that gives caller tokens."
    )
    app.connect("config-inited", _add_box)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
