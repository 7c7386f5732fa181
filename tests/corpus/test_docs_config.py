"""A docs page is governed by its project's settings file, whatever the generator names it:
``mkdocs.yml`` first, else a YAML or TOML file that names a site and this docs folder (a
``properdocs.yml``, a ``zensical.toml`` whose ``[project]`` table holds the settings); a
file that names no site, or another docs folder, governs nothing."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats.docs_config import MAX_CANDIDATES, find_config, settings_of
from citeline.corpus.formats.includes import markdown_extensions
from citeline.corpus.formats.markdown import read
from citeline.corpus.formats.origin import SourceFile

BASE = "https://docs.example.org/"

ZENSICAL = """\
[project]
site_name = "Demo"
nav = [{ "Home" = "index.md" }]

[project.markdown_extensions.admonition]
[project.markdown_extensions.pymdownx.emoji]
emoji_index = "zensical.extensions.emoji.twemoji"
[project.markdown_extensions.pymdownx.blocks.tab]
[project.markdown_extensions.pymdownx.snippets]
base_path = ["snippets"]
check_paths = true
[project.markdown_extensions.pymdownx.superfences]
[[project.markdown_extensions.pymdownx.superfences.custom_fences]]
name = "mermaid"
class = "mermaid"
"""


def _project(tmp_path: Path, name: str, settings: str) -> Path:
    project = tmp_path / f"project{len(list(tmp_path.iterdir()))}"
    (project / "docs" / "guide").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'demo'\n", "utf-8")
    (project / name).write_text(settings, "utf-8")
    return project


def _text(project: Path, markdown: str) -> str:
    page = project / "docs" / "guide" / "page.md"
    page.write_text(markdown, "utf-8")
    origin = SourceFile(
        page, "guide/page", "guide/page.md", BASE + "guide/page/", include_root=project
    )
    documents = [item for item in read(markdown, origin) if isinstance(item, Document)]
    return "\n\n".join(document.text for document in documents)


def test_a_zensical_toml_governs_its_docs_folder_with_its_project_table(tmp_path: Path) -> None:
    project = _project(tmp_path, "zensical.toml", ZENSICAL)
    (project / "snippets").mkdir()
    (project / "snippets" / "note.md").write_text("Shared words.\n", "utf-8")
    assert find_config(project / "docs" / "guide") == project / "zensical.toml"
    # Its snippets' base path is read, and its emoji extension makes icons images.
    assert _text(project, '# Page :material-clock:\n\n--8<-- "note.md"\n') == (
        "Page\n\nShared words."
    )


def test_a_toml_file_s_extension_tables_read_as_the_dotted_names_yaml_writes(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path, "zensical.toml", ZENSICAL)
    extensions = markdown_extensions(settings_of(project / "zensical.toml"))
    assert sorted(extensions) == [
        "admonition",
        "pymdownx.blocks.tab",
        "pymdownx.emoji",
        "pymdownx.snippets",
        "pymdownx.superfences",
    ]
    assert extensions["pymdownx.snippets"]["base_path"] == ["snippets"]
    assert extensions["pymdownx.superfences"]["custom_fences"][0]["name"] == "mermaid"


def test_a_yaml_settings_file_of_another_name_governs_the_docs_folder_it_names(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path, "properdocs.yml", "site_name: Demo\ndocs_dir: docs\n")
    (project / "action.yml").write_text("name: Build\nruns:\n  using: composite\n", "utf-8")
    assert find_config(project / "docs" / "guide") == project / "properdocs.yml"


def test_a_workflow_file_that_names_no_site_governs_nothing(tmp_path: Path) -> None:
    project = _project(tmp_path, "action.yml", "name: Build\ndocs_dir: docs\n")
    assert find_config(project / "docs" / "guide") is None
    # Without settings the page reads as CommonMark: the shortcode is as written.
    assert _text(project, "# Page :material-clock:\n") == "Page :material-clock:"


def test_a_settings_file_of_another_docs_folder_does_not_govern_this_one(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path, "site.yml", "site_name: Other\ndocs_dir: website/pages\n")
    assert find_config(project / "docs" / "guide") is None


def test_mkdocs_yml_is_read_before_any_other_settings_file(tmp_path: Path) -> None:
    project = _project(tmp_path, "zensical.toml", ZENSICAL)
    (project / "mkdocs.yml").write_text("site_name: Demo\n", "utf-8")
    assert find_config(project / "docs") == project / "mkdocs.yml"


def test_a_folder_of_many_yaml_files_is_read_only_so_far(tmp_path: Path) -> None:
    project = _project(tmp_path, "a.yml", "name: first\n")
    for number in range(MAX_CANDIDATES + 10):
        (project / f"b{number:03}.yml").write_text("name: workflow\n", "utf-8")
    # The settings file sorts after the ones read: the folder has none as far as is read.
    (project / "zz.yml").write_text("site_name: Demo\n", "utf-8")
    assert find_config(project / "docs") is None


def test_a_toml_file_nesting_tables_thousands_deep_is_read_to_a_bound(tmp_path: Path) -> None:
    deep = "[project]\nsite_name = 'Demo'\n[project.markdown_extensions." + ".".join(["x"] * 3000)
    project = _project(tmp_path, "zensical.toml", deep + "]\nkey = 1\n")
    extensions = markdown_extensions(settings_of(project / "zensical.toml"))
    assert list(extensions) == ["x.x.x.x"]


def test_a_settings_file_that_is_not_toml_or_yaml_reads_as_no_settings(tmp_path: Path) -> None:
    project = _project(tmp_path, "zensical.toml", "[project\nsite_name = ")
    assert settings_of(project / "zensical.toml") == {}
    assert find_config(project / "docs") is None


DEFAULTS_PAGE = "# Page :material-clock:\n\n- [x] Done\n\n## Options {: #opts cmd-line }\n\nBody.\n"


def test_a_zensical_file_naming_no_extensions_reads_with_zensicals_defaults(
    tmp_path: Path,
) -> None:
    # Zensical then enables its default set: task lists, icons, attribute lists and more.
    for name, settings in (
        ("zensical.toml", '[project]\nsite_name = "Demo"\n'),
        ("zensical.yml", "site_name: Demo\n"),
    ):
        project = _project(tmp_path, name, settings)
        extensions = markdown_extensions(settings_of(project / name))
        assert {"admonition", "attr_list", "pymdownx.tabbed", "pymdownx.tasklist"} <= set(
            extensions
        )
        assert _text(project, DEFAULTS_PAGE) == "Page\n\n\u2611 Done\n\nOptions\n\nBody."


def test_an_empty_extensions_table_or_an_mkdocs_yml_enables_no_defaults(tmp_path: Path) -> None:
    # An empty table names no extension, which turns Zensical's defaults off; MkDocs has none.
    for name, settings in (
        ("zensical.toml", '[project]\nsite_name = "Demo"\nmarkdown_extensions = {}\n'),
        ("mkdocs.yml", "site_name: Demo\n"),
    ):
        project = _project(tmp_path, name, settings)
        assert markdown_extensions(settings_of(project / name)) == {}
        assert _text(project, DEFAULTS_PAGE) == (
            "Page :material-clock:\n\n\u2022 [x] Done\n\nOptions {: #opts cmd-line }\n\nBody."
        )
