"""Fragment-safe transforms from raw model text to the text a reader sees.

Pure and synchronous: text fragments in, text and anchors out, no I/O, no models,
no HTTP. Each transform gives the same result however its input was split.
"""

from citeline.stream.anchors import Anchor, AnchorStripper
from citeline.stream.pipeline import Pipeline, StreamChunk, TextTransform
from citeline.stream.sources_section import SourcesSectionStripper

__all__ = [
    "Anchor",
    "AnchorStripper",
    "Pipeline",
    "SourcesSectionStripper",
    "StreamChunk",
    "TextTransform",
]
