"""Unicode, line ends, BOMs, huge and hanging documents, several documents at once."""
import os
import random

import pytest

from tests.lsp.conftest import FAST_LIMITS, uri_of
from tests.lsp.rawclient import RawClient

NOT_LINE_ENDS = {"form feed": "\x0c", "VT": "\x0b", "FS": "\x1c", "GS": "\x1d", "RS": "\x1e",
                 "NEL": "\x85", "LS": "\u2028", "PS": "\u2029"}


def kernel(tile: int = 64, line_prefix: str = "") -> str:
    return ("import cuda.tile as ct\n\n"
            f"# tilescope: args f32[1024], f32[1024], {tile}\n"
            "@ct.kernel\n"
            "def k(a, b, T: ct.Constant[int]):\n"
            f"    {line_prefix}t = ct.load(a, index=(0,), shape=(T,))\n"
            "    ct.store(b, index=(0,), tile=t)\n")


def utf16(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def errors(diags):
    return [d for d in diags if d["severity"] == 1]


@pytest.mark.parametrize("name", sorted(NOT_LINE_ENDS))
def test_separator_in_a_comment_moves_nothing(server, workdir, name):
    sep = NOT_LINE_ENDS[name]
    text = f"# section{sep}break {sep}\n" + kernel(48)
    uri = uri_of(os.path.join(workdir, "sep.py"))
    server.open(uri, text)
    diags = errors(server.wait_diagnostics(uri, version=1, timeout=30))
    lines = text.split("\n")
    load_line = next(i for i, s in enumerate(lines) if "ct.load" in s)
    assert [d["range"]["start"]["line"] for d in diags] == [load_line], diags
    # the server's copy stays the client's through edits on both sides of the separator
    server.change(uri, 2, [{"range": {"start": {"line": 0, "character": 3}, "end": {"line": 0, "character": 3}},
                            "text": "X"},
                           {"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}},
                            "text": "# more\n"}])
    expect = text[:3] + "X" + text[3:]
    first_end = expect.index("\n") + 1
    expect = expect[:first_end] + "# more\n" + expect[first_end:]
    assert server.state(uri)["text"] == expect
    diags = errors(server.wait_diagnostics(uri, version=2, timeout=30))
    assert [d["range"]["start"]["line"] for d in diags] == [load_line + 1]


def test_bom_is_not_a_syntax_error(server, workdir):
    uri = uri_of(os.path.join(workdir, "bom.py"))
    text = "\ufeff" + kernel(48)
    server.open(uri, text)
    diags = server.wait_diagnostics(uri, version=1, timeout=30)
    assert [d["code"] for d in errors(diags)] == ["TileTypeError"], diags     # the real error only
    h = server.hover(uri, 5, 4)["result"]
    assert h["contents"]["value"].startswith("```python\nt")


@pytest.mark.parametrize("ending", ["\r\n", "\r"])
def test_crlf_and_cr_documents(server, workdir, ending):
    text = kernel(48).replace("\n", ending)
    uri = uri_of(os.path.join(workdir, "crlf.py"))
    server.open(uri, text)
    diags = errors(server.wait_diagnostics(uri, version=1, timeout=30))
    assert [d["range"]["start"]["line"] for d in diags] == [5]
    server.change(uri, 2, [{"range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}},
                            "text": "    u = ct.bid(0)" + ending}])
    assert server.state(uri)["text"] == ending.join(
        kernel(48).split("\n")[:5] + ["    u = ct.bid(0)"] + kernel(48).split("\n")[5:])
    server.wait_diagnostics(uri, version=2, timeout=30)
    assert "Tile[int32,()]" in server.hover(uri, 5, 4)["result"]["contents"]["value"]


PREFIXES = {"emoji": 's = "😀😀"; ', "CJK": 's = "中文字"; ', "accents": 's = "éàü"; ',
            "mixed": 's = "a😀中é𝔘"; '}


@pytest.mark.parametrize("name", sorted(PREFIXES))
def test_columns_after_non_ascii_text(server, workdir, name):
    assert server.init_result["result"]["capabilities"]["positionEncoding"] == "utf-16"    # nothing offered
    prefix = PREFIXES[name]
    text = kernel(48, prefix)
    uri = uri_of(os.path.join(workdir, "cols.py"))
    server.open(uri, text)
    line = text.split("\n")[5]
    err = errors(server.wait_diagnostics(uri, version=1, timeout=30))[0]["range"]
    assert err["start"] == {"line": 5, "character": utf16(line[:line.index("ct.load")])}
    assert err["end"] == {"line": 5, "character": utf16(line[:line.index(")) ") + 2 if ")) " in line else
                                                                  line.rindex(")") + 1])}
    server.replace(uri, 2, kernel(64, prefix))
    server.wait_diagnostics(uri, version=2, timeout=30)
    t_col = utf16(line[:line.index("t = ct")])
    h = server.hover(uri, 5, t_col)["result"]
    assert h["contents"]["value"].startswith("```python\nt: Tile[float32,(64)]"), h
    assert h["range"]["start"]["character"] == t_col and h["range"]["end"]["character"] == t_col + 1
    h = server.hover(uri, 5, utf16(line[:line.index("ct.load")]) + 4)["result"]     # on `load`
    assert "ct.load" in h["contents"]["value"]
    hints = server.call("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}})["result"]
    assert {"line": 5, "character": t_col + 1} in [h["position"] for h in hints if "Tile" in h["label"]]
    d = server.call("textDocument/definition", {"textDocument": {"uri": uri}, "position": {
        "line": 6, "character": utf16("    ct.store(b, index=(0,), tile=")}})["result"]
    assert d["range"]["start"] == {"line": 5, "character": t_col}


@pytest.mark.parametrize("encoding", ["utf-8"])      # utf-32: same path, covered by test_positions.py
def test_negotiated_position_encoding(workdir, encoding):
    c = RawClient(FAST_LIMITS, encodings=[encoding, "utf-16"])
    try:
        assert c.init_result["result"]["capabilities"]["positionEncoding"] == encoding
        prefix = PREFIXES["mixed"]
        text = kernel(64, prefix)
        uri = uri_of(os.path.join(workdir, "enc.py"))
        c.open(uri, text)
        c.wait_diagnostics(uri, version=1, timeout=30)
        line = text.split("\n")[5]
        head = line[:line.index("t = ct")]
        col = len(head.encode())
        h = c.hover(uri, 5, col)["result"]
        assert h["contents"]["value"].startswith("```python\nt: Tile"), h
        assert h["range"]["start"]["character"] == col
        # an incremental edit in the same units lands where the client meant it
        c.change(uri, 2, [{"range": {"start": {"line": 5, "character": col}, "end": {"line": 5, "character": col + 1}},
                           "text": "tt"}])
        assert c.state(uri)["text"] == text.replace("; t = ct", "; tt = ct")
    finally:
        c.shutdown()


def test_random_unicode_edits_keep_the_text_identical(server, workdir):
    rng = random.Random(17)
    alphabet = ["a", " ", "\n", "\r\n", "\r", "😀", "中", "é", "\x0c", "\u2028", "\x85", "\t", "𝔘"]
    text = kernel(64)
    uri = uri_of(os.path.join(workdir, "fuzz.py"))
    server.open(uri, text)
    for version in range(2, 300):
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        line = rng.randrange(len(lines) + 1)
        content = lines[line] if line < len(lines) else ""
        a, b = sorted(rng.randrange(len(content) + 2) for _ in range(2))
        new = "".join(rng.choice(alphabet) for _ in range(rng.randrange(4)))
        start, end = _offset(text, line, a), _offset(text, line, b)
        text = text[:start] + new + text[end:]
        server.change(uri, version, [{"range": {"start": {"line": line, "character": utf16(content[:a])},
                                                "end": {"line": line, "character": utf16(content[:b])}},
                                      "text": new}])
        if version % 50 == 0:
            assert server.state(uri)["text"] == text
    assert server.state(uri)["text"] == text


def _offset(text, line, index):
    import re
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    if line >= len(starts):
        return len(text)
    m = re.compile(r"\r\n|\r|\n").search(text, starts[line])
    end = m.start() if m else len(text)
    return min(starts[line] + index, end)


# ---- size, hangs and several documents --------------------------------------------------

def test_huge_document_gets_a_clear_diagnostic_and_blocks_nothing(server, workdir):
    small = uri_of(os.path.join(workdir, "small.py"))
    server.open(small, kernel(64))
    server.wait_diagnostics(small, version=1, timeout=30)
    huge = uri_of(os.path.join(workdir, "huge.py"))
    body = kernel(64) + "X = [" + "1, " * 7_000_000 + "]\n"        # about 20 MB
    server.open(huge, body)
    diags = server.wait_diagnostics(huge, version=1, timeout=60)
    assert len(diags) == 1 and "maxDocumentKB" in diags[0]["message"] and diags[0]["range"]["start"]["line"] == 0
    assert "Tile[float32,(64)]" in server.hover(small, 5, 4)["result"]["contents"]["value"]
    server.change(huge, 2, [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                             "text": "# edited\n"}])
    assert server.state(huge, with_text=False)["lineCount"] == body.count("\n") + 1
    assert server.rss_mb(huge) < 900
    server.close(huge)


SPIN = "n = ct.static_eval(sum(range(10**11)))\n    t = ct.load"


def test_unbounded_compile_time_python_is_refused_in_bounded_steps(server, workdir):
    uri = uri_of(os.path.join(workdir, "spin.py"))
    server.open(uri, kernel(64).replace("t = ct.load", SPIN))
    diags = errors(server.wait_diagnostics(uri, version=1, timeout=60))
    assert [d["range"]["start"]["line"] for d in diags] == [5] and "steps" in diags[0]["message"], diags


def test_hang_in_one_document_does_not_hold_back_another(trusting, workdir):
    # With executeModules, compile-time Python is ordinary Python: a runaway one holds its
    # worker until the server kills it; the other documents are answered meanwhile.
    calm = uri_of(os.path.join(workdir, "calm.py"))
    trusting.open(calm, kernel(64))
    trusting.wait_diagnostics(calm, version=1, timeout=30)
    stuck = uri_of(os.path.join(workdir, "stuck.py"))
    trusting.open(stuck, kernel(64).replace("t = ct.load", SPIN))
    for _ in range(5):       # while the hung analysis runs: answered, and right
        h = trusting.hover(calm, 5, 4)["result"]
        assert "Tile[float32,(64)]" in h["contents"]["value"]
    assert trusting.state(stuck)["analysedVersion"] is None        # the answers came before it finished
    diags = trusting.wait_diagnostics(stuck, version=1, timeout=60, predicate=lambda d: len(d) > 0)
    assert any("did not finish" in d["message"] and d["range"]["start"]["line"] == 4 for d in diags), diags
    # fixed: analysed again, normally
    trusting.replace(stuck, 2, kernel(48))
    diags = trusting.wait_diagnostics(stuck, version=2, timeout=60)
    assert any("power of two" in d["message"] for d in diags)


def test_a_hanging_kernel_does_not_hide_the_others(trusting, workdir):
    text = kernel(48) + '''
# tilescope: args 1
@ct.kernel
def spin(n: ct.Constant[int]):
    m = ct.static_eval(sum(range(10**11)))
'''
    uri = uri_of(os.path.join(workdir, "two.py"))
    trusting.open(uri, text)
    diags = trusting.wait_diagnostics(uri, version=1, timeout=60,
                                      predicate=lambda d: any("did not finish" in x["message"] for x in d))
    assert any("power of two" in d["message"] for d in diags), diags


def test_several_documents_at_once(server, workdir):
    uris = []
    for i in range(6):
        uri = uri_of(os.path.join(workdir, f"many{i}.py"))
        uris.append(uri)
        server.open(uri, kernel(2 ** (i + 4) if i % 2 else 48))
    for i, uri in enumerate(uris):
        diags = server.wait_diagnostics(uri, version=1, timeout=60)
        assert bool(errors(diags)) == (i % 2 == 0), (i, diags)
    ids = [server.request("textDocument/hover", {"textDocument": {"uri": u}, "position": {"line": 5, "character": 4}})
           for u in uris]
    for i, msg_id in enumerate(ids):
        value = server.response(msg_id)["result"]["contents"]["value"]
        if i % 2:
            assert f"Tile[float32,({2 ** (i + 4)})]" in value
    for uri in uris[::2]:
        server.close(uri)
    for i, uri in enumerate(uris):
        reply = server.hover(uri, 5, 4)
        assert ("error" in reply) == (i % 2 == 0)


@pytest.mark.parametrize("name", ["form feed", "LS"])
def test_syntax_error_below_a_separator(server, workdir, name):
    text = f"x = 1  # {NOT_LINE_ENDS[name]}\n" + kernel(64) + "\ndef broken(:\n    pass\n"
    uri = uri_of(os.path.join(workdir, "syntax.py"))
    server.open(uri, text)
    diags = errors(server.wait_diagnostics(uri, version=1, timeout=30))
    assert [d["range"]["start"]["line"] for d in diags] == [text.split("\n").index("def broken(:")], diags
    assert "Tile[float32,(64)]" in server.hover(uri, 6, 4)["result"]["contents"]["value"]
