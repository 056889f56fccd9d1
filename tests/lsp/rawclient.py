"""A small synchronous LSP client over stdio that can also send what no real client sends.

Used by the adversarial tests and bench/lsp_soak.py: raw bytes, malformed JSON-RPC,
requests with bad parameters; it records every response and notification.
"""
from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def server_env() -> Dict[str, str]:
    env = dict(os.environ)
    src = os.path.join(ROOT, "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


class RawClient:
    def __init__(self, init_options: Optional[dict] = None, encodings: Optional[List[str]] = None,
                 initialize: bool = True, stderr=None):
        self.proc = subprocess.Popen([sys.executable, "-m", "tilescope", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=stderr or subprocess.DEVNULL,
                                     env=server_env(), cwd=ROOT)
        self.responses: Dict[Any, dict] = {}
        self.notifications: List[dict] = []
        self.diagnostics: Dict[str, dict] = {}
        self.cond = threading.Condition()
        self.ids = itertools.count(1)
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.init_result = None
        if initialize:
            caps: dict = {"textDocument": {"hover": {"contentFormat": ["markdown"]}}}
            if encodings is not None:
                caps["general"] = {"positionEncodings": encodings}
            self.init_result = self.call("initialize", {"processId": None, "rootUri": None, "capabilities": caps,
                                                        "initializationOptions": init_options or {}}, timeout=60)
            self.notify("initialized", {})

    # ---- transport ------------------------------------------------------------------

    def send_raw(self, body: bytes) -> None:
        with self.lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def send(self, obj: Any) -> None:
        self.send_raw(json.dumps(obj).encode("utf-8"))

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            msg = json.loads(out.read(length))
            with self.cond:
                if "method" in msg and "id" in msg:          # a request from the server
                    self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
                elif "method" in msg:
                    self.notifications.append(msg)
                    if msg["method"] == "textDocument/publishDiagnostics":
                        self.diagnostics[msg["params"]["uri"]] = msg["params"]
                else:
                    self.responses[msg.get("id")] = msg
                self.cond.notify_all()

    def wait_for(self, predicate: Callable[[], Any], timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                value = predicate()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise TimeoutError("no answer")
                self.cond.wait(min(left, 0.2))

    # ---- JSON-RPC -------------------------------------------------------------------

    def request(self, method: str, params: Any, msg_id: Any = None) -> Any:
        msg_id = next(self.ids) if msg_id is None else msg_id
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return msg_id

    def response(self, msg_id: Any, timeout: float = 10.0) -> dict:
        return self.wait_for(lambda: self.responses.pop(msg_id, None), timeout)

    def call(self, method: str, params: Any, timeout: float = 10.0) -> dict:
        return self.response(self.request(method, params), timeout)

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    # ---- documents ------------------------------------------------------------------

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.diagnostics.pop(uri, None)
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python",
                                                              "version": version, "text": text}})

    def change(self, uri: str, version: int, changes: List[dict]) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": changes})

    def replace(self, uri: str, version: int, text: str) -> None:
        self.change(uri, version, [{"text": text}])

    def close(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def wait_diagnostics(self, uri: str, version: Optional[int] = None, timeout: float = 20.0,
                         predicate: Callable[[List[dict]], bool] = lambda d: True) -> List[dict]:
        def ready():
            p = self.diagnostics.get(uri)
            if p is None or (version is not None and p.get("version") != version):
                return None
            return p["diagnostics"] if predicate(p["diagnostics"]) else None
        got = self.wait_for(lambda: (ready(),) if ready() is not None else None, timeout)
        return got[0]

    def hover(self, uri: str, line: int, character: int, timeout: float = 10.0) -> dict:
        return self.call("textDocument/hover", {"textDocument": {"uri": uri},
                                                "position": {"line": line, "character": character}}, timeout)

    def state(self, uri: str, with_text: bool = True) -> dict:
        return self.call("tilescope/documentState", {"textDocument": {"uri": uri}, "withText": with_text})["result"]

    def rss_by_process(self, uri: Optional[str] = None) -> Dict[int, float]:
        """Resident memory (MB) of the server and, given an open document, its analysis workers (Linux)."""
        pids = [self.proc.pid]
        if uri is not None:
            pids += self.state(uri, with_text=False)["workers"]
        out = {}
        for pid in pids:
            try:
                with open(f"/proc/{pid}/statm") as f:
                    out[pid] = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
            except OSError:
                pass
        return out

    def rss_mb(self, uri: Optional[str] = None) -> float:
        return sum(self.rss_by_process(uri).values())

    def shutdown(self) -> int:
        try:
            self.call("shutdown", None, timeout=10)
            self.notify("exit", None)
        except (TimeoutError, OSError, ValueError):
            pass
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
