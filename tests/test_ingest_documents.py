"""Documents in (notebook 15): what cannot be read as a document is refused in one sentence."""
from __future__ import annotations

import pytest

from course.foundation.errors import InvalidInput
from course.ingest.documents import MAX_BYTES, read_document


def tiny_pdf(text: str) -> bytes:
    """A one-page PDF showing `text`, written by hand (no PDF tool needed)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> >>", b"",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    stream = b"BT /F1 12 Tf 72 720 Td (" + text.encode("latin-1") + b") Tj ET"
    objects[3] = b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_a_pdf_is_read_by_pypdf(tmp_path):
    path = tmp_path / "handout.pdf"
    path.write_bytes(tiny_pdf("DBMS covers Concurrency Control and Two-Phase Locking."))
    doc = read_document(path)
    assert doc.kind == "pdf"
    assert [s.text for s in doc.sentences] == ["DBMS covers Concurrency Control and Two-Phase Locking."]


def test_markdown_keeps_headings_and_paragraphs(tmp_path):
    path = tmp_path / "n.md"
    path.write_text("# Title\n\nOne. Two.\n\n## Note: X\n\nThree.\n", encoding="utf-8")
    doc = read_document(path)
    assert [(s.text, s.heading, s.paragraph) for s in doc.sentences] == [
        ("One.", "Title", 1), ("Two.", "Title", 1), ("Three.", "Note: X", 2)]


def test_the_same_bytes_are_the_same_document(tmp_path):
    (tmp_path / "a.txt").write_text("Aarav studies DBMS.", encoding="utf-8")
    first = read_document(tmp_path / "a.txt").id
    (tmp_path / "a.txt").write_text("Aarav studies DSA.", encoding="utf-8")
    assert first.startswith("a.txt@") and read_document(tmp_path / "a.txt").id != first


def _sentence(exc: pytest.ExceptionInfo) -> str:
    message = str(exc.value)
    assert "\n" not in message and "Traceback" not in message
    return message


@pytest.mark.parametrize("name, data, says", [
    ("empty.txt", b"", "is empty"),
    ("blank.md", b"  \n\n\t\n", "is empty"),
    ("fake.pdf", b"Aarav studies DBMS.", "is not a PDF"),
    ("broken.pdf", b"%PDF-1.4\nthis is not a PDF body at all", "damaged PDF"),
    ("latin.txt", "Aarav studiert Datenbanken für Anfänger.".encode("latin-1"), "not UTF-8"),
    ("binary.txt", b"Aarav\x00\x01\x02", "binary data"),
    ("line.txt", b"a" * 1_000_000, "a line of 1,000,000 characters"),
    ("sheet.csv", b"student,subject\n", "no rows"),
    ("sheet2.csv", b"student,,grade\nAarav,DBMS,A\n", "name every column"),
    ("sheet3.csv", b"student,subject\nAarav,DBMS,A\n", "line 2: 3 values for 2 columns"),
    ("slides.pptx", b"PK\x03\x04", "not a document the course reads"),
])
def test_bad_documents_are_refused_in_one_sentence(tmp_path, name, data, says):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InvalidInput) as caught:
        read_document(path)
    assert says in _sentence(caught)


def test_a_50_mb_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.txt"
    with path.open("wb") as handle:      # sparse: 50 MB on paper, nothing on disk
        handle.truncate(50 * 1_000_000)
    with pytest.raises(InvalidInput) as caught:
        read_document(path)
    assert f"at most {MAX_BYTES // 1_000_000} MB" in _sentence(caught)


def test_a_missing_file_is_one_sentence(tmp_path):
    with pytest.raises(InvalidInput) as caught:
        read_document(tmp_path / "nowhere.md")
    assert "cannot be read" in _sentence(caught)


def test_a_title_does_not_end_a_sentence(tmp_path):
    path = tmp_path / "staff.txt"
    path.write_text("Prof. Sharma teaches DBMS. Payal helps her, e.g. in the labs.", encoding="utf-8")
    assert [s.text for s in read_document(path).sentences] == [
        "Prof. Sharma teaches DBMS.", "Payal helps her, e.g. in the labs."]
