"""benchmarks/questions/site_pages.sh, the copy of a site's pages that the prepare.sh of eight
collections makes: what it takes and leaves out, and that it copies once, marking the copy
complete only after its last page."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "questions" / "site_pages.sh"
NOINDEX = '<html><head><meta name="robots" content="noindex"></head></html>\n'


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "guide").mkdir(parents=True)
    (site / "index.html").write_text("front\n")
    (site / "print.html").write_text(NOINDEX)
    (site / "guide" / "setup.html").write_text("setup\n")
    (site / "guide" / "setup.txt").write_text("setup's source\n")
    (site / "404.html").write_text("not found\n")
    (site / "home.html").symlink_to("index.html")
    return site


def copy(tmp_path: Path, *arguments: str | Path) -> Path:
    """The folder the script prints on its last line."""
    done = subprocess.run(
        [str(SCRIPT), *map(str, arguments)],
        env={**os.environ, "CITELINE_COLLECTIONS_CACHE": str(tmp_path / "cache")},
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(done.stdout.splitlines()[-1])


def tree(folder: Path) -> dict[str, str]:
    """Each path under ``folder``: a link's target, else the file's text."""
    return {
        path.relative_to(folder).as_posix(): (
            f"-> {os.readlink(path)}" if path.is_symlink() else path.read_text()
        )
        for path in folder.rglob("*")
        if path.is_symlink() or path.is_file()
    }


def test_the_pages_are_copied_but_those_left_out_and_links_as_the_page_they_name(
    tmp_path: Path, site: Path
) -> None:
    pages = copy(tmp_path, site, "book-1.0", "--leave-out", "404.html", "--without-noindex")
    assert pages == tmp_path / "cache" / "book-1.0"
    assert tree(pages) == {
        "index.html": "front\n",
        "home.html": "front\n",
        "guide/setup.html": "setup\n",
    }


def test_kept_links_stay_links_and_the_top_level_leaves_subfolders_out(
    tmp_path: Path, site: Path
) -> None:
    pages = copy(tmp_path, site, "book-1.0", "--top-level", "--keep-links")
    assert tree(pages) == {
        "index.html": "front\n",
        "home.html": "-> index.html",
        "print.html": NOINDEX,
        "404.html": "not found\n",
    }


def test_directory_urls_and_a_renamed_page_take_the_paths_the_site_serves(
    tmp_path: Path, site: Path
) -> None:
    pages = copy(tmp_path, site, "dirs-1.0", "--directory-urls", "--leave-out", "home.html")
    assert set(tree(pages)) == {
        "index.html",
        "print/index.html",
        "404/index.html",
        "guide/setup/index.html",
    }
    one = copy(tmp_path, site, "one-1.0", "--pages", "home.html", "--rename", "home.html", "a.html")
    assert tree(one) == {"a.html": "front\n"}


def test_a_complete_copy_is_not_made_again_and_its_marker_is_beside_it(
    tmp_path: Path, site: Path
) -> None:
    pages = copy(tmp_path, site, "book-1.0")
    assert (tmp_path / "cache" / "book-1.0.complete").is_file()
    (site / "index.html").write_text("changed\n")
    assert copy(tmp_path, site, "book-1.0") == pages
    assert (pages / "index.html").read_text() == "front\n"
    assert copy(tmp_path, "--complete", "book-1.0") == pages


def test_a_copy_without_its_marker_is_made_again(tmp_path: Path, site: Path) -> None:
    pages = copy(tmp_path, site, "book-1.0")
    # As a copy cut short leaves it: some pages, no marker.
    (tmp_path / "cache" / "book-1.0.complete").unlink()
    (pages / "guide" / "setup.html").unlink()
    (pages / "stale.html").write_text("from an older copy\n")
    with pytest.raises(subprocess.CalledProcessError) as incomplete:
        copy(tmp_path, "--complete", "book-1.0")
    assert incomplete.value.returncode == 1
    copy(tmp_path, site, "book-1.0")
    assert tree(pages) == tree(copy(tmp_path, site, "fresh-1.0"))
