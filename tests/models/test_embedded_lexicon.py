"""Ordinary English words, against the names of other products."""

from __future__ import annotations

import pytest

from citeline.models.embedded.lexicon import ordinary, ordinary_words


@pytest.mark.parametrize("word", ["dictionary", "colleagues", "fish", "password"])
def test_a_word_of_the_dictionary_is_ordinary(word: str) -> None:
    assert ordinary(word)


@pytest.mark.parametrize("word", ["reachable", "bulleted", "lifetimes", "configured", "loops"])
def test_a_word_with_an_ordinary_ending_is_ordinary(word: str) -> None:
    assert ordinary(word)


@pytest.mark.parametrize("word", ["nginx", "firewalld", "selinux", "zsh", "npm", "gradle"])
def test_another_products_name_is_no_ordinary_word(word: str) -> None:
    assert not ordinary(word)


@pytest.mark.parametrize("word", ["httpd", "docker", "fail2ban", "last_seen"])
def test_a_name_made_of_a_word_and_a_few_letters_is_no_ordinary_word(word: str) -> None:
    assert not ordinary(word)


def test_the_ordinary_words_are_whole_words_of_letters() -> None:
    words = ordinary_words()
    assert len(words) > 20_000
    assert all(word.isalpha() and not word.startswith("#") for word in words)
