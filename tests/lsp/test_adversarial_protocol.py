"""Every request is answered, whatever is sent; bad options are refused with a message."""
import json
import os

import pytest

from tests.lsp.conftest import FAST_LIMITS, uri_of
from tests.lsp.rawclient import RawClient
from tilescope.tools.lsp.options import Options, apply

KERNEL = '''import cuda.tile as ct

# tilescope: args f32[1024], f32[1024], 64
@ct.kernel
def k(a, b, T: ct.Constant[int]):
    t = ct.load(a, index=(0,), shape=(T,))
    ct.store(b, index=(0,), tile=t)
'''
INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR = -32602, -32600, -32601, -32700


@pytest.fixture(scope="module")
def doc(server):
    uri = "file:///tmp/tilescope-lsp-protocol/k.py"
    server.open(uri, KERNEL)
    server.wait_diagnostics(uri, version=1, timeout=30)
    return uri


def td(uri):
    return {"textDocument": {"uri": uri}}


BAD_REQUESTS = {
    "negative line": lambda u: ("textDocument/hover", dict(td(u), position={"line": -1, "character": 0})),
    "negative character": lambda u: ("textDocument/hover", dict(td(u), position={"line": 0, "character": -5})),
    "missing position": lambda u: ("textDocument/hover", td(u)),
    "line as string": lambda u: ("textDocument/hover", dict(td(u), position={"line": "3", "character": 0})),
    "line as float": lambda u: ("textDocument/hover", dict(td(u), position={"line": 1.5, "character": 0})),
    "line as bool": lambda u: ("textDocument/hover", dict(td(u), position={"line": True, "character": 0})),
    "line too large for uinteger": lambda u: ("textDocument/hover", dict(td(u), position={"line": 2**40,
                                                                                          "character": 0})),
    "uri as number": lambda u: ("textDocument/hover", {"textDocument": {"uri": 5},
                                                       "position": {"line": 0, "character": 0}}),
    "params null": lambda u: ("textDocument/hover", None),
    "params array": lambda u: ("textDocument/hover", [1, 2]),
    "unknown document hover": lambda u: ("textDocument/hover", dict(td(u + ".nope"),
                                                                    position={"line": 0, "character": 0})),
    "unknown document completion": lambda u: ("textDocument/completion", dict(td("file:///nope.py"),
                                                                              position={"line": 0, "character": 0})),
    "unknown document definition": lambda u: ("textDocument/definition", dict(td("untitled:Untitled-1"),
                                                                              position={"line": 0, "character": 0})),
    "unknown document signature help": lambda u: ("textDocument/signatureHelp", dict(
        td("file:///nope.py"), position={"line": 0, "character": 0})),
    "unknown document inlay hints": lambda u: ("textDocument/inlayHint", dict(
        td("file:///nope.py"), range={"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}})),
    "inlay hint range reversed": lambda u: ("textDocument/inlayHint", dict(
        td(u), range={"start": {"line": 9, "character": 0}, "end": {"line": 0, "character": 0}})),
    "inlay hint range missing": lambda u: ("textDocument/inlayHint", td(u)),
    "completion character object": lambda u: ("textDocument/completion", dict(
        td(u), position={"line": 0, "character": {"x": 1}})),
    "definition position list": lambda u: ("textDocument/definition", dict(td(u), position=[0, 0])),
    "document state without uri": lambda u: ("tilescope/documentState", {}),
}


@pytest.mark.parametrize("name", sorted(BAD_REQUESTS))
def test_bad_params_get_invalid_params(server, doc, name):
    method, params = BAD_REQUESTS[name](doc)
    reply = server.call(method, params)
    assert reply.get("error", {}).get("code") == INVALID_PARAMS, reply
    assert "Traceback" not in json.dumps(reply)


def test_positions_past_the_end_are_clamped(server, doc):
    for line, character in ((0, 10_000), (500, 0), (500, 500)):
        reply = server.hover(doc, line, character)
        assert "error" not in reply and "result" in reply


BAD_MESSAGES = {
    "not json": (b"{this is not json", PARSE_ERROR),
    "json array": (b"[1, 2, 3]", INVALID_REQUEST),
    "json number": (b"42", INVALID_REQUEST),
    "id is an object": (json.dumps({"jsonrpc": "2.0", "id": {"a": 1}, "method": "textDocument/hover",
                                    "params": {}}).encode(), INVALID_REQUEST),
    "wrong jsonrpc version": (json.dumps({"jsonrpc": "1.0", "id": 77, "method": "textDocument/hover",
                                          "params": {}}).encode(), INVALID_REQUEST),
    "unknown method": (json.dumps({"jsonrpc": "2.0", "id": 78, "method": "tilescope/nothing",
                                   "params": {}}).encode(), METHOD_NOT_FOUND),
}


@pytest.mark.parametrize("name", sorted(BAD_MESSAGES))
def test_bad_messages_get_an_error(server, doc, name):
    body, code = BAD_MESSAGES[name]
    msg_id = json.loads(body).get("id") if body.startswith(b"{\"") else None
    if isinstance(msg_id, dict):
        msg_id = None
    server.responses.pop(msg_id, None)
    server.send_raw(body)
    reply = server.response(msg_id)
    assert reply["error"]["code"] == code, reply
    assert server.hover(doc, 5, 4)["result"] is not None       # and the server goes on


def test_bad_notifications_do_not_break_the_session(server, doc):
    server.notify("textDocument/didChange", {"textDocument": {"uri": "file:///never-opened.py", "version": 2},
                                             "contentChanges": [{"text": "x = 1\n"}]})
    server.notify("textDocument/didChange", {"textDocument": {"uri": doc}, "contentChanges": "garbage"})
    server.notify("textDocument/didOpen", {"textDocument": {"uri": 7}})
    server.notify("textDocument/didClose", None)
    server.notify("$/unknownNotification", {"x": 1})
    assert server.state(doc)["text"] == KERNEL
    assert "Tile[float32,(64)]" in server.hover(doc, 5, 4)["result"]["contents"]["value"]


def test_change_outside_the_document_is_clamped(server, workdir):
    uri = uri_of(os.path.join(workdir, "clamp.py"))
    server.open(uri, "a\nb\n")
    server.change(uri, 2, [{"range": {"start": {"line": 40, "character": 3}, "end": {"line": 50, "character": 0}},
                            "text": "c\n"}])
    server.change(uri, 3, [{"range": {"start": {"line": 0, "character": 99}, "end": {"line": 0, "character": 99}},
                            "text": "!"}])
    assert server.state(uri)["text"] == "a!\nb\nc\n"


def test_cancelled_request_is_answered(server, doc):
    msg_id = server.request("textDocument/hover", dict(td(doc), position={"line": 5, "character": 4}))
    server.notify("$/cancelRequest", {"id": msg_id})
    reply = server.response(msg_id)
    assert "result" in reply or reply["error"]["code"] == -32800


# ---- options -------------------------------------------------------------------------

BAD_OPTIONS = {
    "debounceMs huge": {"debounceMs": 1e308},
    "debounceMs negative": {"debounceMs": -5},
    "debounceMs text": {"debounceMs": "fast"},
    "debounceMs NaN": {"debounceMs": float("nan")},
    "debounceMs bool": {"debounceMs": True},
    "executeModules text": {"executeModules": "yes"},
    "maxDocumentKB zero": {"maxDocumentKB": 0},
    "workers fractional": {"workers": 1.5},
    "workerMemoryMB tiny": {"workerMemoryMB": 1},
    "analysisTimeoutMs infinite": {"analysisTimeoutMs": float("inf")},
    "unknown option": {"colour": "blue"},
}


@pytest.mark.parametrize("name", sorted(BAD_OPTIONS))
def test_bad_option_keeps_its_value(name):
    raw = dict(BAD_OPTIONS[name], maxDocumentKB=BAD_OPTIONS[name].get("maxDocumentKB", 77))
    opts, problems = apply(Options(), raw)
    option = next(iter(BAD_OPTIONS[name]))
    assert len(problems) == 1 and option in problems[0], problems
    if option in Options.__dataclass_fields__:
        assert getattr(opts, option) == getattr(Options(), option)
    assert opts.maxDocumentKB == (77 if option != "maxDocumentKB" else Options().maxDocumentKB)


def test_bad_options_are_refused_and_said():
    c = RawClient(dict(BAD_OPTIONS["debounceMs huge"], **BAD_OPTIONS["executeModules text"]))
    try:
        c.wait_for(lambda: len([n for n in c.notifications if n["method"] == "window/showMessage"]) >= 2, 20)
        shown = [n["params"]["message"] for n in c.notifications if n["method"] == "window/showMessage"]
        assert any("debounceMs" in m and "1e+308" in m for m in shown), shown
        assert any("executeModules" in m for m in shown), shown
        uri = "file:///tmp/tilescope-lsp-options/k.py"
        c.open(uri, KERNEL)
        c.wait_diagnostics(uri, version=1, timeout=30)     # diagnostics still come
        col = KERNEL.splitlines()[2].index("64")
        c.change(uri, 2, [{"range": {"start": {"line": 2, "character": col}, "end": {"line": 2, "character": col + 2}},
                           "text": "48"}])
        diags = c.wait_diagnostics(uri, version=2, timeout=30)
        assert any("power of two" in d["message"] for d in diags), diags
    finally:
        c.shutdown()


def test_options_not_an_object_then_requests_after_shutdown():
    c = RawClient(initialize=False)
    try:
        reply = c.call("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                      "initializationOptions": [1, 2]}, timeout=60)
        assert "capabilities" in reply["result"]
        c.notify("initialized", {})
        c.wait_for(lambda: any(n["method"] == "window/showMessage" for n in c.notifications), 20)
        assert c.call("shutdown", None).get("error") is None
        reply = c.call("textDocument/hover", {"textDocument": {"uri": "file:///x.py"},
                                              "position": {"line": 0, "character": 0}})
        assert reply["error"]["code"] == INVALID_REQUEST
        c.notify("exit", None)
        assert c.proc.wait(timeout=10) == 0
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def test_configuration_change_is_checked(server, doc):
    server.notifications.clear()
    server.notify("workspace/didChangeConfiguration", {"settings": {"tilescope": {"debounceMs": "x",
                                                                                  "maxDocumentKB": 2048}}})
    server.wait_for(lambda: any(n["method"] == "window/showMessage" for n in server.notifications), 20)
    msgs = [n["params"]["message"] for n in server.notifications if n["method"] == "window/showMessage"]
    assert any("debounceMs" in m for m in msgs) and not any("maxDocumentKB" in m for m in msgs)


def test_notifications_leave_nothing_behind(server, workdir):
    uri = uri_of(os.path.join(workdir, "many_edits.py"))
    server.open(uri, KERNEL)
    for version in range(2, 402):
        server.change(uri, version, [{"range": {"start": {"line": 0, "character": 0},
                                                "end": {"line": 0, "character": 0}}, "text": "#"}])
    state = server.state(uri, with_text=False)
    assert state["version"] == 401
    assert state["pendingRequests"] <= 2, state        # the documentState request itself
