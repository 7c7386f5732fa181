"""pymdownx.keys' key combinations, written as the keys the page shows.

Under ``pymdownx.keys``, ``++ctrl+alt+delete++`` is drawn as three keys joined by "+":
"Ctrl+Alt+Del". Read as written, the text held "++ctrl+alt+delete++", a word no reader
types (Python-Markdown's playground page: "++ctrl+enter++", Hatch's docs one more;
pymdown-extensions' Keys page 192, examples in its code blocks among them). Each key shows
its display name; a quoted key (``++ctrl+"My Key"++``) shows what its quotes hold.

pymdownx names some 200 keys and 150 aliases (its ``keymap_db``). Only the common keys whose
name is no capitalised form of the word written are kept here (``_NAMES``, small on
purpose: the rest of its table spells a key as its words capitalised, "page-up" as "Page
Up", "f5" as "F5", which ``_display_name`` does). pymdownx leaves a combination naming a
key its table lacks as written; here such a key reads as its words capitalised too: the
list is not copied, and "++foo++" shown as "Foo" loses no word of the page.
"""

from __future__ import annotations

import html
import re

# A combination as pymdownx reads one: keys (a name, or a quoted string) joined by single
# "+"s between "++" pairs, not after a backslash. Quoted strings are matched whole so a
# "+" inside is no separator; a name's characters never match a "+", so it stays linear.
_KEY = r"""[\w-]+|"(?:\\.|[^\\"])+"|'(?:\\.|[^\\'])+'"""
_COMBINATION = re.compile(rf"(?<!\\)\+\+((?:(?:{_KEY})\+(?!\+))*(?:{_KEY}))\+\+")
_KEY_TOKEN = re.compile(_KEY)
_ESCAPE = re.compile(r"\\(.)")

# The common keys whose display name pymdownx's keymap_db spells otherwise than the name
# written, capitalised (its aliases folded in); a deliberately small part of its table.
_NAMES = {
    "ctrl": "Ctrl",
    "control": "Ctrl",
    "cmd": "Cmd",
    "command": "Cmd",
    "opt": "Option",
    "esc": "Esc",
    "escape": "Esc",
    "del": "Del",
    "delete": "Del",
    "ins": "Ins",
    "insert": "Ins",
    "return": "Enter",
    "bksp": "Backspace",
    "back": "Backspace",
    "spc": "Space",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "arrow-up": "Up",
    "arrow-down": "Down",
    "arrow-left": "Left",
    "arrow-right": "Right",
    "pg-up": "Page Up",
    "pg-dn": "Page Down",
    "page-dn": "Page Down",
    "win": "Win",
    "windows": "Win",
    "fn": "Fn",
    "function": "Fn",
    "altgr": "AltGr",
    "alt-graph": "AltGr",
    "prtsc": "Print Screen",
    "plus": "+",
    "minus": "-",
}


def shown_keys(text: str) -> str:
    """``text`` with each key combination written as the keys pymdownx.keys shows."""
    if "++" not in text:
        return text
    return _COMBINATION.sub(_combination, text)


def _combination(found: re.Match[str]) -> str:
    return "+".join(_display_name(key) for key in _KEY_TOKEN.findall(found.group(1)))


def _display_name(key: str) -> str:
    if key[0] in "\"'":
        return html.unescape(_ESCAPE.sub(r"\1", key[1:-1])).strip()
    named = _NAMES.get(key.lower())
    if named is not None:
        return named
    return " ".join(part[:1].upper() + part[1:] for part in key.split("-") if part)
