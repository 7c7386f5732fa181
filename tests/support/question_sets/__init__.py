"""The development collections as their tests read them (benchmarks/questions/<name>/), apart
from citeline's ingest, so that a gold section the site has and the index lacks shows as an
index failure, not as a wrong question.

- ``manifest``: a collection's ``collection.toml``, every manifest there is, and the folder
  its ``prepare.sh`` makes to ingest.
- ``html_pages``: a built site's pages read into the sections a link shows, by generator
  (Sphinx, AsciiDoc, mdBook, MkDocs, GNU Texinfo, Exim's xfpt, DocBook XSL's chunked HTML).
- ``markdown_pages``: an MkDocs project's Markdown sources read into the sections its built
  site publishes, include directives resolved.
- ``checks``: what must hold of a set, each returning what is wrong so a test's failure names
  every offender at once: its files' shape, its gold read from the pages, its terms.

``tests/support/gold_addresses.py`` holds the one check made against citeline's own index.
"""
