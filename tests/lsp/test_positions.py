"""Lines and columns as LSP counts them: line ends, position encodings, incremental edits."""
import ast
import re

from hypothesis import given, settings, strategies as st

from tilescope.directives import find_kernels
from tilescope.frontend.source import split_lines
from tilescope.tools.lsp.documents import Document
from tilescope.tools.lsp.positions import (UTF8, UTF16, UTF32, byte_to_index, choose_encoding,
                                           index_to_units, units_to_index)

# Characters `str.splitlines` splits at but Python and LSP do not.
NOT_LINE_ENDS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def test_split_lines_only_at_cr_lf():
    text = "a\x0cb\r\nc\u2028d\x85e\rf\ng\x1c\x1d\x1e\x0bh"
    assert split_lines(text) == ["a\x0cb", "c\u2028d\x85e", "f", "g\x1c\x1d\x1e\x0bh"]
    assert "".join(split_lines(text, keepends=True)) == text
    assert split_lines("x\n") == ["x"] and split_lines("") == [] and split_lines("\n\n") == ["", ""]


def test_lines_agree_with_python_numbering():
    for sep in NOT_LINE_ENDS:
        text = f"a = 1  # {sep} not a line end\nb = 2\n"
        assert ast.parse(text).body[1].lineno == 2
        assert split_lines(text)[1] == "b = 2"


def test_directives_below_a_form_feed_are_found():
    for sep in NOT_LINE_ENDS:
        src = (f"import cuda.tile as ct\n# section{sep}break\n\n# tilescope: args f32[16], 16\n"
               f"@ct.kernel\ndef k(a, T: ct.Constant[int]):\n    pass\n")
        sites = find_kernels(ast.parse(src), src)
        assert sites[0].signatures == ["f32[16], 16"], repr(sep)
        assert sites[0].directive_lines == [4]


def test_directive_on_the_first_line_after_a_bom():
    src = "\ufeff# tilescope: args f32[16]\n@kernel\ndef k(a):\n    pass\n"
    sites = find_kernels(ast.parse(src.encode("utf-8")), src)
    assert sites[0].signatures == ["f32[16]"]


def test_encodings_count_units():
    line = "a😀é中b"          # 😀: 2 UTF-16 units, 4 bytes; é: 2 bytes; 中: 3 bytes
    assert [index_to_units(line, i, UTF16) for i in range(6)] == [0, 1, 3, 4, 5, 6]
    assert [index_to_units(line, i, UTF8) for i in range(6)] == [0, 1, 5, 7, 10, 11]
    assert [index_to_units(line, i, UTF32) for i in range(6)] == [0, 1, 2, 3, 4, 5]
    assert units_to_index(line, 3, UTF16) == 2 and units_to_index(line, 2, UTF16) == 1   # inside the pair
    assert units_to_index(line, 10, UTF8) == 4 and units_to_index(line, 99, UTF8) == 5
    assert byte_to_index(line, len("a😀é".encode())) == 3
    assert choose_encoding(["utf-32", "utf-16"]) == UTF32 and choose_encoding(None) == UTF16
    assert choose_encoding(["latin-1"]) == UTF16


# ---- incremental edits against a slow, obviously right reference ----------------------

def _ref_offset(text, line, units, enc):
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    if line >= len(starts):
        return len(text)
    start = starts[line]
    m = re.compile(r"\r\n|\r|\n").search(text, start)
    end = m.start() if m else len(text)
    count = 0
    for i in range(start, end):
        ch = text[i]
        width = {UTF32: 1, UTF16: 2 if ord(ch) > 0xFFFF else 1,
                 UTF8: len(ch.encode("utf-8", "surrogatepass"))}[enc]
        if count + width > units:
            return i
        count += width
    return end


ALPHABET = st.sampled_from(list("ab \t\r\n") + ["\r\n", "😀", "é", "中", "\x0c", "\u2028", "\x85"])
TEXT = st.lists(ALPHABET, max_size=30).map("".join)
POS = st.tuples(st.integers(0, 8), st.integers(0, 12))


@settings(max_examples=150, deadline=None)
@given(TEXT, st.lists(st.tuples(POS, POS, TEXT), max_size=8), st.sampled_from([UTF8, UTF16, UTF32]))
def test_incremental_edits_match_the_reference(text, edits, enc):
    doc = Document("file:///x.py", text, 1, enc)
    for a, b, new in edits:
        oa, ob = sorted((_ref_offset(text, *a, enc), _ref_offset(text, *b, enc)))
        text = text[:oa] + new + text[ob:]
        doc.apply(a, b, new)
        assert doc.text == text
        assert [doc.line(i) for i in range(doc.line_count())] == split_lines(text)
