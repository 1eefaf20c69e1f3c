"""Documents in: plain text, Markdown, PDF (via pypdf) and an LMS export as CSV, read into sentences.

Introduced in notebook 15. A `Document` is the file's text cut into `Sentence`s (each with
its line, and the Markdown heading it sits under), or, for a CSV, its rows. Its `id` is
its file name with a short hash of its bytes, so the same file read twice is the same
document, and a changed file is another one. Whatever cannot be read as a document is
refused in one sentence before anything else happens.

>>> doc = document_from_text("notice.md", "# Clubs\\n\\nSneha leads it. Aarav joined in 2026.")
>>> [(s.text, s.heading) for s in doc.sentences]
[('Sneha leads it.', 'Clubs'), ('Aarav joined in 2026.', 'Clubs')]
>>> doc.id
'notice.md@865a4c11'
"""
from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from course.foundation.errors import InvalidInput

MAX_BYTES = 2_000_000          # a course document is a few pages; 2 MB of text is a book
MAX_LINE = 20_000              # characters on one line of text (a 1 MB line is not prose)
KINDS = {".txt": "text", ".md": "markdown", ".markdown": "markdown", ".pdf": "pdf", ".csv": "csv"}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_ABBREVIATION = re.compile(r"\b(?:Prof|Dr|Mr|Mrs|Ms|St|e\.g|i\.e|vs|etc)\.$")


@dataclass(frozen=True)
class Sentence:
    text: str
    line: int
    heading: str = ""        # the Markdown heading above it ("" if none)
    paragraph: int = 0       # sentences of one paragraph share a number


@dataclass
class Document:
    """A document's name, its id (name@hash), what kind it is, and its sentences or rows."""

    name: str
    id: str
    kind: str
    sentences: list[Sentence] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)       # a CSV's header
    rows: list[tuple[int, dict[str, str]]] = field(default_factory=list)   # (line, row)

    def paragraph(self, number: int) -> str:
        """The text of one paragraph, its sentences joined."""
        return " ".join(s.text for s in self.sentences if s.paragraph == number)


def document_id(name: str, data: bytes) -> str:
    return f"{name}@{hashlib.sha1(data).hexdigest()[:8]}"


def read_document(path: Path | str) -> Document:
    """Read a file as a document; InvalidInput, in one sentence, when it cannot be one."""
    path = Path(path)
    kind = KINDS.get(path.suffix.lower())
    if kind is None:
        raise InvalidInput(f"{path.name}: not a document the course reads; give a .txt, .md, "
                           ".pdf or .csv file.")
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise InvalidInput(f"{path.name} is {size / 1e6:.1f} MB; a document may be at most "
                               f"{MAX_BYTES // 1_000_000} MB: split it, or give the part that matters.")
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidInput(f"{path.name} cannot be read ({exc.strerror}): check the path.") from None
    if kind == "pdf":
        return document_from_text(path.name, pdf_text(path.name, data), data=data, kind="pdf")
    text = _utf8(path.name, data)
    if kind == "csv":
        return document_from_csv(path.name, text, data=data)
    return document_from_text(path.name, text, data=data, kind=kind)


def _utf8(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{name} is not UTF-8 text (byte {exc.start} is not): save it as "
                           "UTF-8 and try again.") from None


def pdf_text(name: str, data: bytes) -> str:
    """The text of a PDF's pages, read by pypdf; InvalidInput for a file that is not a PDF."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    if not data.startswith(b"%PDF-"):
        raise InvalidInput(f"{name} is not a PDF (it does not start with %PDF-): give the real "
                           "PDF, or save the text as a .txt file.")
    try:
        pages = [page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages]
    except (PyPdfError, ValueError, KeyError, TypeError) as exc:
        raise InvalidInput(f"{name} is a damaged PDF that pypdf cannot read ({type(exc).__name__}): "
                           "export it again, or save the text as a .txt file.") from None
    return "\n\n".join(pages)


def document_from_text(name: str, text: str, *, data: bytes | None = None,
                       kind: str = "text") -> Document:
    """Cut text into sentences, keeping each one's line and the heading above it."""
    _check_text(name, text)
    doc = Document(name, document_id(name, data if data is not None else text.encode()), kind)
    heading, paragraph, fresh = "", 0, True
    for number, line in enumerate(text.splitlines(), 1):
        found = _HEADING.match(line)
        if found:
            heading, fresh = found.group(1), True
            continue
        if not line.strip():
            fresh = True
            continue
        if fresh:
            paragraph, fresh = paragraph + 1, False
        for piece in split_sentences(line):
            doc.sentences.append(Sentence(piece, number, heading, paragraph))
    if not doc.sentences and heading:   # a heading alone still says something
        doc.sentences.append(Sentence(heading, 1, "", 1))
    return doc


def split_sentences(line: str) -> list[str]:
    """A line's sentences; a title's full stop ("Prof. Sharma") does not end one.

    >>> split_sentences("Prof. Sharma teaches DBMS. Dr. Rao teaches OS.")
    ['Prof. Sharma teaches DBMS.', 'Dr. Rao teaches OS.']
    """
    pieces: list[str] = []
    for piece in _SENTENCE_END.split(line.strip()):
        if pieces and _ABBREVIATION.search(pieces[-1]):
            pieces[-1] = f"{pieces[-1]} {piece.strip()}"
        else:
            pieces.append(piece.strip())
    return pieces


def _check_text(name: str, text: str) -> None:
    if not text.strip():
        raise InvalidInput(f"{name} is empty: there is nothing to ingest.")
    if "\x00" in text:
        raise InvalidInput(f"{name} holds binary data, not text: give a text, Markdown, PDF "
                           "or CSV file.")
    longest = max(len(line) for line in text.splitlines())
    if longest > MAX_LINE:
        raise InvalidInput(f"{name} has a line of {longest:,} characters (at most {MAX_LINE:,}): "
                           "that is not prose; break it into sentences.")


def document_from_csv(name: str, text: str, *, data: bytes | None = None) -> Document:
    """An LMS export: a header naming the columns, then one row per line."""
    _check_text(name, text)
    reader = csv.reader(io.StringIO(text))
    header = [cell.strip() for cell in next(reader, [])]
    if not header or not all(header):
        raise InvalidInput(f"{name}: the first line must name every column (e.g. "
                           "student,subject,semester,grade).")
    doc = Document(name, document_id(name, data if data is not None else text.encode()), "csv",
                   columns=header)
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise InvalidInput(f"{name}, line {reader.line_num}: {len(row)} values for "
                               f"{len(header)} columns; check for a missing comma or quote.")
        doc.rows.append((reader.line_num, {h: c.strip() for h, c in zip(header, row)}))
    if not doc.rows:
        raise InvalidInput(f"{name} has a header but no rows: there is nothing to ingest.")
    return doc
