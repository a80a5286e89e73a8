"""XML read within limits: no entities, elements nested and counted, text bounded.

The standard library's expat parser, driven directly rather than through ElementTree, so that
each limit is checked as the element that passes it starts: a file with 3,000 layers or
10,000 nested elements is refused at the first element too many, not after it was built.
What defusedxml does is done here too (entity declarations refused, so neither an entity bomb
nor an external entity can be expanded; nothing is fetched from outside); what it does not do,
bounding depth, elements and text, is the reason for this module.

A DOCTYPE alone is accepted: Tiled before 1.0 wrote `<!DOCTYPE map SYSTEM "...">`, and expat
never fetches the DTD it names.

Tiled writes old layers as one `<tile gid="..."/>` element per cell; inside an element named
in `packed`, such children are kept as numbers in an array (4 bytes a cell) and counted
against `max_packed`, not built as elements.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NoReturn
from xml.parsers import expat

GID_MAX = 0xFFFFFFFF
_CHUNK = 1 << 16  # bytes given to expat at a time, so that what it holds can be measured


class XmlError(Exception):
    """XML that is refused: the message says where (`line 3: ...`) and why."""


@dataclass(eq=False, slots=True)
class Element:
    """One element: its tag, attributes, children and text (only text inside elements that
    hold text is kept), the line it starts on, and packed child numbers."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[Element] = field(default_factory=list)
    text: str = ""
    packed: array[int] | None = None

    def find(self, tag: str) -> Element | None:
        return next((child for child in self.children if child.tag == tag), None)

    def findall(self, tag: str) -> list[Element]:
        return [child for child in self.children if child.tag == tag]


@dataclass(frozen=True, slots=True)
class XmlLimits:
    depth: int
    elements: int
    text_chars: int
    max_packed: int
    # Bytes of one piece of markup (a start tag with its attributes, a comment, a DOCTYPE):
    # expat holds a piece whole before it reports it, so a tag of millions of attributes is
    # refused at this size rather than read into a dictionary of millions of entries.
    markup_bytes: int
    # Elements counted by (parent tag, tag): the name of their count and its limit. Counts
    # that share a name add up ("layers": <layer> and <group> in <map> and in <group>).
    counted: Mapping[tuple[str, str], tuple[str, int]] = field(default_factory=dict)


@dataclass
class _Builder:
    limits: XmlLimits
    text_tags: frozenset[str]
    packed: Mapping[str, tuple[str, str]]
    parser: expat.XMLParserType
    stack: list[Element] = field(default_factory=list)
    pieces: list[list[str]] = field(default_factory=list)
    root: Element | None = None
    elements: int = 0
    packed_count: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    reported: int = 0  # the byte where the last thing expat reported starts
    # What stands on the stack for a packed child, which is never kept.
    skip: Element = field(default_factory=lambda: Element("", {}, 0))

    def refuse(self, message: str) -> NoReturn:
        raise XmlError(f"line {self.parser.CurrentLineNumber}: {message}")

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        self.reported = self.parser.CurrentByteIndex
        parent = self.stack[-1] if self.stack else None
        if parent is not None and parent.tag in self.packed:
            child, attribute = self.packed[parent.tag]
            if tag == child and parent.packed is not None:
                self._pack(parent.packed, attrs.get(attribute, "0"))
                self.stack.append(self.skip)
                self.pieces.append([])
                return
        if len(self.stack) >= self.limits.depth:
            self.refuse(f"elements nested more than {self.limits.depth} deep")
        self.elements += 1
        if self.elements > self.limits.elements:
            self.refuse(f"more than {self.limits.elements:,} elements")
        if parent is not None and (parent.tag, tag) in self.limits.counted:
            noun, most = self.limits.counted[(parent.tag, tag)]
            self.counts[noun] = self.counts.get(noun, 0) + 1
            if self.counts[noun] > most:
                self.refuse(f"more than {most:,} {noun}; a map may have at most {most:,}")
        for name, value in attrs.items():
            if len(value) > self.limits.text_chars:
                self.refuse(
                    f"<{tag}> attribute {name!r} has {len(value):,} characters; "
                    f"at most {self.limits.text_chars:,}"
                )
        element = Element(tag, attrs, self.parser.CurrentLineNumber)
        if tag in self.packed:
            element.packed = array("I")
        if parent is None:
            self.root = element
        else:
            parent.children.append(element)
        self.stack.append(element)
        self.pieces.append([])

    def _pack(self, into: array[int], value: str) -> None:
        self.packed_count += 1
        if self.packed_count > self.limits.max_packed:
            self.refuse(f"more than {self.limits.max_packed:,} cells in all")
        number = value.strip()
        if not number.isdigit() or len(number) > 10 or int(number) > GID_MAX:
            self.refuse(f"a tile's gid must be a whole number from 0 to {GID_MAX}, not {value!r}")
        into.append(int(number))

    def end(self, tag: str) -> None:
        self.reported = self.parser.CurrentByteIndex
        element = self.stack.pop()
        text = self.pieces.pop()
        if text:
            element.text = "".join(text)

    def chars(self, data: str) -> None:
        self.reported = self.parser.CurrentByteIndex
        if not self.stack or self.stack[-1].tag not in self.text_tags:
            return
        pieces = self.pieces[-1]
        pieces.append(data)
        # A layer's data is bounded by the file's size alone; a property's text by the limit.
        if self.stack[-1].tag not in self.packed and sum(map(len, pieces)) > self.limits.text_chars:
            self.refuse(
                f"<{self.stack[-1].tag}> text of more than {self.limits.text_chars:,} characters"
            )

    def markup(self, *_: object) -> None:
        """A comment, processing instruction or DOCTYPE: only where it was is kept."""
        self.reported = self.parser.CurrentByteIndex

    def entity(self, *_: object) -> None:
        self.refuse(
            "the file declares entities; Tiled never writes them, and they are refused (one "
            "could expand without end or read another file)"
        )

    def skipped(self, name: str, _parameter: bool) -> None:
        self.refuse(f"the file refers to an entity (&{name};); Tiled never writes them")

    def external(self, *_: object) -> int:
        self.refuse("the file refers to an external entity; Tiled never writes them")


def parse(
    data: bytes,
    limits: XmlLimits,
    text_tags: frozenset[str] = frozenset(),
    packed: Mapping[str, tuple[str, str]] | None = None,
) -> Element:
    """The root element of the XML document `data`. XmlError names the line and the reason
    of a refusal: broken XML, entities, or a limit passed. Text is kept only inside elements
    whose tag is in `text_tags`."""
    parser = expat.ParserCreate()
    builder = _Builder(limits, text_tags, packed or {}, parser)
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True  # text comes in few large pieces, not one per line
    parser.StartElementHandler = builder.start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.chars
    parser.EntityDeclHandler = builder.entity
    parser.UnparsedEntityDeclHandler = builder.entity
    parser.SkippedEntityHandler = builder.skipped
    parser.ExternalEntityRefHandler = builder.external
    parser.CommentHandler = builder.markup
    parser.ProcessingInstructionHandler = builder.markup
    parser.StartDoctypeDeclHandler = builder.markup
    parser.EndDoctypeDeclHandler = builder.markup
    try:
        for start in range(0, len(data), _CHUNK):
            parser.Parse(data[start : start + _CHUNK], False)
            pending = min(len(data), start + _CHUNK) - builder.reported
            if pending > limits.markup_bytes:
                builder.refuse(
                    f"a tag (or other markup) of more than {limits.markup_bytes:,} bytes; the "
                    "file is damaged or not a Tiled file"
                )
        parser.Parse(b"", True)
    except expat.ExpatError as error:
        reason = expat.ErrorString(error.code) or "broken"
        raise XmlError(
            f"line {error.lineno}: broken XML ({reason}); the file is damaged or not a Tiled file"
        ) from None
    except (LookupError, ValueError):  # the declared encoding: unknown, or multi-byte
        raise XmlError(
            f"line {parser.CurrentLineNumber}: the file declares an encoding that cannot be "
            "read; Tiled writes UTF-8"
        ) from None
    if builder.root is None:
        raise XmlError("line 1: no element at all")
    return builder.root
