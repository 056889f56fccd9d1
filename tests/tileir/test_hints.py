"""@ct.kernel hints (num_ctas, occupancy, num_worker_warps, opt_level, ct.ByTarget) reach the TileIR
entry's optimization_hints and tileiras's -O level exactly as upstream writes them."""
from dataclasses import dataclass
from pathlib import Path

import pytest

import tilescope
import tilescope.lang as ct
from tilescope.backends.tileir import find_toolchain, normalize_names, write_bytecode
from tilescope.backends.tileir.hints import entry_hints, opt_level
from tilescope.errors import TileUnsupportedFeatureError
from tilescope.gpu.cubin import same_code
from tilescope.lang.shim import load_file, upstream_available

KERNELS = Path(__file__).with_name("kernels_hints.py")
SPEC = "f32[?], f32[?], 64"
TOOLCHAIN = find_toolchain(required=False)
MOD = load_file(str(KERNELS))


def compiled(name):
    return tilescope.compile(getattr(MOD, name), SPEC)


def head(text):
    return text.splitlines()[0].split(") optimization_hints=")[1][:-2]     # without " {"


def test_hints_by_target_in_upstreams_order():
    c = compiled("ctas_by_target")
    assert head(c.tileir_text()) == "<sm_100 = {num_cta_in_cga = 2}, default = {num_cta_in_cga = 1, occupancy = 4}>"
    # a target listed only by opt_level (not a hint) still gets an entry, as upstream writes it
    assert head(compiled("occupancy_by_target").tileir_text()) == \
        "<default = {}, sm_90 = {occupancy = 2}, sm_100 = {occupancy = 3}>"


def test_before_13_3_hints_are_resolved_for_one_architecture():
    c = compiled("ctas_by_target")
    h = entry_hints(c.options, "13.2", "sm_100")
    assert h.by_target == (("sm_100", (("num_cta_in_cga", 2), ("occupancy", 4))),)
    assert entry_hints(c.options, "13.2", "sm_90").by_target == (("sm_90", (("num_cta_in_cga", 1), ("occupancy", 4))),)
    assert entry_hints(c.options, "13.2") is None         # no architecture to resolve them for


def test_worker_warps_and_opt_level():
    c = compiled("warps_and_level")
    assert head(c.tileir_text()) == "<default = {num_worker_warps_per_cta = 8}, sm_90 = {}>"
    assert opt_level(c.options, "sm_90") == 1 and opt_level(c.options, "sm_100") == 3
    with pytest.warns(UserWarning, match="num_worker_warps is ignored: requires tileiras 13.3"):
        assert entry_hints(c.options, "13.2", "sm_90").by_target == (("sm_90", ()),)
    with pytest.raises(TileUnsupportedFeatureError, match="num_worker_warps=16 requires tileiras 13.5 or later. "
                                                          "Current version is 13.4."):
        compiled("many_warps").tileir_module()


@pytest.mark.parametrize("kwargs,message", [
    (dict(num_ctas=3), "num_ctas should be power of 2, got 3"),
    (dict(num_ctas=32), r"num_ctas should be \[1, 16\], got 32"),
    (dict(occupancy=0), r"occupancy should be \[1, 32\], got 0"),
    (dict(opt_level=ct.ByTarget(sm_90=4)), r"opt_level should be \[0, 3\], got 4"),
    (dict(num_worker_warps=3), r"num_worker_warps should be a power of 2 in \[1, 32\], got 3"),
])
def test_hint_values_are_checked_as_upstream_does(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ct.kernel(lambda a: None, **kwargs)


def test_upstream_kernel_objects_carry_their_hints():
    pytest.importorskip("cuda.tile")
    if not upstream_available():
        pytest.skip("cuda-tile is not installed")
    import importlib.util
    spec = importlib.util.spec_from_file_location("kernels_hints_upstream", KERNELS)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)              # with the real cuda.tile
    c = tilescope.compile(mod.ctas_by_target, SPEC)
    assert head(c.tileir_text()) == "<sm_100 = {num_cta_in_cga = 2}, default = {num_cta_in_cga = 1, occupancy = 4}>"


@dataclass
class _Case:
    kernel: str

    @property
    def key(self):
        return f"hints::{self.kernel}"

    path = KERNELS
    args = SPEC


@pytest.mark.skipif(TOOLCHAIN is None or not upstream_available(), reason="needs tileiras and cuda-tile")
@pytest.mark.parametrize("name", ["ctas_by_target", "warps_and_level", "occupancy_by_target"])
def test_same_entry_and_cubins_as_upstream(name, tmp_path):
    from tests.oracle.upstream_export import export_bytecode
    case = _Case(name)
    path = export_bytecode([case], "13.4", str(tmp_path))[case.key]
    theirs = Path(path).read_bytes()
    c = compiled(name)
    ours = write_bytecode(c.tileir_module("13.4"), "13.4")
    assert normalize_names(TOOLCHAIN.disassemble(ours)).splitlines()[0] == \
        normalize_names(TOOLCHAIN.disassemble(theirs)).splitlines()[0]
    for gpu in ("sm_90", "sm_100"):
        level = opt_level(c.options, gpu)
        assert same_code(TOOLCHAIN.assemble(ours, gpu, opt_level=level), TOOLCHAIN.assemble(theirs, gpu, opt_level=level))


@pytest.mark.parametrize("name", ["ctas_by_target", "warps_and_level", "occupancy_by_target"])
def test_hints_read_from_source_without_importing(name):
    # `tilescope compile FILE` reads the file without running it: the decorator's hints still
    # reach the entry and tileiras's -O level, as when the module is imported.
    from tilescope.frontend.static_module import analyze_module
    static = analyze_module(KERNELS.read_text(), str(KERNELS)).functions[name]
    from_source = tilescope.compile(static, SPEC)
    imported = compiled(name)
    assert from_source.options == imported.options
    assert head(from_source.tileir_text()) == head(imported.tileir_text())


def test_bad_hint_read_from_source_is_a_located_error(tmp_path):
    src = tmp_path / "bad_hint.py"
    src.write_text("import cuda.tile as ct\n\n\n@ct.kernel(occupancy=64)\ndef k(a):\n    pass\n")
    from tilescope.frontend.static_module import analyze_module
    from tilescope.errors import TileValueError
    static = analyze_module(src.read_text(), str(src)).functions["k"]
    with pytest.raises(TileValueError, match=r"occupancy should be \[1, 32\], got 64") as e:
        tilescope.compile(static, "f32[16]")
    assert (e.value.loc.line, e.value.loc.col) == (4, 2)
