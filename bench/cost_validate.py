"""Validate `tilescope cost` on a GPU: predicted vs measured kernel times.

    python bench/cost_validate.py prepare [--out .costval]      # here (tileiras, cuda-tile): cubins + cases.json
    python bench/cost_validate.py run .costval --json OUT.json  # on the GPU machine (CuPy, CUDA events)
    python bench/cost_validate.py run .costval --mock           # here: the CPU executor, small sizes (plumbing)
    python bench/cost_validate.py report OUT.json [--write docs/cost-model.md]
    python bench/cost_validate.py facts --cubins DIR            # which estimated facts lose the accuracy

Cases come in three groups. `micro`: microbenchmarks (bench/cost_kernels.py) that measure the
few constants the model takes from a measurement (cost/calibration.py). `validate`: the
validation kernels, through tilescope's own cubins. `validate-tma`: a few of them built as
upstream cuTile's launch builds them for aligned contiguous arrays (16-byte aligned base, unit
last stride as a constant), which lets tileiras use TMA loads; upstream's bytecode, the same
tileiras. The micro group is measured in the same run, so the calibration comes from the same
machine and clocks; the validation cases never feed the model.

This module is the command line. It holds the checkouts given (UPSTREAM ... REPOS; a script may set
them here too) and what reads them: `cases` (which sets are listed) and `kernel_of`. The rest:
costval_case.py (the Case type, --only), costval_catalog.py (the case list), costval_build.py
(prepare), costval_run.py (run), costval_report.py (predict, report), costval_facts.py (facts).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import List, Optional, Tuple

import costval_build
import costval_run
from cost_setd import install_torch, load as load_tilegym   # TileGym's modules, host helpers stood in
from cost_setf import load as load_tilebench               # TileBench's modules, host helpers stood in
from cost_setk import load_cutilegpt                       # cutileGPT's modules, CuPy stood in
from cost_setm import load_checkout                        # a --repo checkout's module, host imports stood in
from cost_seto import HOST_MODULES as SETO_HOST           # host-only imports of set O's checkouts
from cost_setp import HOST_MODULES as SETP_HOST           # and of set P's
from cost_setq import HOST_MODULES as SETQ_HOST           # and of set Q's
from cost_setr import DEMO_AT_IMPORT as SETR_DEMO        # set R's files that run a demo when imported
from cost_sets import DEMO_AT_IMPORT as SETS_DEMO        # and set S's
from cost_sets import HOST_MODULES as SETS_HOST          # host-only imports of set S's checkouts (Q's and more)
from cost_sett import DEMO_AT_IMPORT as SETT_DEMO        # set T's demo files
from cost_sett import HOST_MODULES as SETT_HOST          # and its checkouts' host-only imports
from cost_setu import HOST_MODULES as SETU_HOST          # set U's checkouts' host-only imports
from cost_setv import HOST_MODULES as SETV_HOST          # and set V's
from cost_setw import HOST_MODULES as SETW_HOST          # and set W's
from cost_setx import HOST_MODULES as SETX_HOST          # and set X's
from cost_sety import HOST_MODULES as SETY_HOST          # and set Y's (set W's checkout, more of its files)
from cost_setz import HOST_MODULES as SETZ_HOST          # and set Z's
from cost_setaf import HOST_MODULES as SETAF_HOST        # and set AF's
from cost_bbench_draw import SEEDS as BBENCH_SEEDS   # the sets drawn from better-benchmark (AG on)
from costval_build import aligned_specs  # noqa: F401  (scripts use it from here)
from costval_case import (CUTILEGPT_PREFIX, ONLY_HELP, ROOT, TILEBENCH_PREFIX, A, Arg, Case, K, S,  # noqa: F401
                          case_from_json, picked, tilebench_impl)
from costval_catalog import ALL_SETS, all_cases, held_out  # noqa: F401  (held_out: scripts use it from here)
from costval_facts import fact_groups                 # which estimated facts lose the accuracy
from costval_report import predict_folder, render     # the predictions and the comparison table

UPSTREAM = os.environ.get("COSTVAL_UPSTREAM", "")    # a checkout of NVIDIA/cutile-python (set C)
TILEGYM = os.environ.get("COSTVAL_TILEGYM", "")      # a checkout of NVIDIA/TileGym (set D)
TILEBENCH = os.environ.get("COSTVAL_TILEBENCH", "")  # a checkout of Deep-Learning-Profiling-Tools/Tilebench (set F)
CUTILEGPT = os.environ.get("COSTVAL_CUTILEGPT", "")  # a checkout of falcons-eyes/cutileGPT (set K)
REPOS: dict = {}                 # --repo NAME=DIR: checkouts a case's file names as NAME:path/in/repo.py
SETM_REPOS = ("transformers", "turboquant", "kernels")      # set M's checkouts (bench/cost_setm.py)
SETN_REPOS = ("puzzles", "forge", "learn")                   # set N's checkouts (bench/cost_setn.py)
SETO_REPOS = ("ancora", "flashattn")                         # set O's checkouts (bench/cost_seto.py)
SETP_REPOS = ("along", "flashinfer")                         # set P's checkouts (bench/cost_setp.py)
SETQ_REPOS = ("gym",)                                        # set Q's checkout (bench/cost_setq.py)
SETR_REPOS = ("along",)                                      # set R's checkout (bench/cost_setr.py)
SETS_REPOS = ("along", "gym")                                # set S's checkouts (bench/cost_sets.py)
SETT_REPOS = ("typeviz", "fla", "canny", "zzp")              # set T's checkouts (bench/cost_sett.py)
SETU_REPOS = ("edin", "lessw", "gym")                        # set U's checkouts (bench/cost_setu.py)
SETV_REPOS = ("stencil", "book")                             # set V's checkouts (bench/cost_setv.py)
SETW_REPOS = ("bbench", "cs336", "libing", "vllm")           # set W's checkouts (bench/cost_setw.py)
SETX_REPOS = ("megatron", "mlplab", "mpm", "cut2np")         # set X's checkouts (bench/cost_setx.py)
SETY_REPOS = ("bbench",)                                     # set Y's checkout (bench/cost_sety.py)
SETZ_REPOS = ("bastile", "iori", "irdump")                   # set Z's checkouts (bench/cost_setz.py)
SETAF_REPOS = ("te",)                                        # set AF's checkout (bench/cost_setaf.py)
REPO_SETS = (("M", SETM_REPOS), ("N", SETN_REPOS), ("O", SETO_REPOS), ("P", SETP_REPOS), ("Q", SETQ_REPOS),
             ("R", SETR_REPOS), ("S", SETS_REPOS), ("T", SETT_REPOS), ("U", SETU_REPOS), ("V", SETV_REPOS),
             ("W", SETW_REPOS), ("X", SETX_REPOS), ("Y", SETY_REPOS), ("Z", SETZ_REPOS), ("AF", SETAF_REPOS),
             *((letter, ("bbench",)) for letter in BBENCH_SEEDS))   # the sets --repo gives (AG on: drawn)
HOST_MODULES = {**SETO_HOST, **SETP_HOST, **SETQ_HOST, **SETS_HOST, **SETT_HOST,   # set S's `gym` entry holds set Q's
                **SETU_HOST, **SETV_HOST, **SETW_HOST, **SETX_HOST, **SETY_HOST, **SETZ_HOST, **SETAF_HOST}
DEMO_AT_IMPORT = {repo: SETR_DEMO.get(repo, ()) + SETS_DEMO.get(repo, ()) + SETT_DEMO.get(repo, ())
                  for repo in {*SETR_DEMO, *SETS_DEMO, *SETT_DEMO}}


def given_sets() -> Tuple[str, ...]:
    """The names of the sets (costval_catalog.CHECKOUT_SETS) whose checkouts are given."""
    given = ((("C",), UPSTREAM), (("D", "E"), TILEGYM), (("F", "G", "H", "I", "J", "AA", "AB", "AC", "AD", "AE"), TILEBENCH),
             (("K",), UPSTREAM and TILEGYM and TILEBENCH and CUTILEGPT), (("L",), TILEGYM and CUTILEGPT),
             *(((letter,), any(name in REPOS for name in repos)) for letter, repos in REPO_SETS))
    return tuple(name for names, have in given if have for name in names)


def cases(small: bool = False, with_upstream: bool = False) -> List[Case]:
    """Every case; `small` shrinks sizes for a CPU plumbing run (tile shapes unchanged). The sets
    read from checkouts: those given, or with `with_upstream` all of them."""
    return all_cases(8 if small else 1, ALL_SETS if with_upstream else given_sets())


def kernel_of(case: Case):
    """The case's kernel object. Set C's upstream files are imported with a stand-in `torch`
    when torch is not installed (they use it only for dtypes such as torch.int32)."""
    from tilescope.lang.shim import load_file
    repo, sep, rel = case.file.partition(":")
    if sep and repo not in ("tilebench", "cutilegpt", "tilegym", "upstream"):
        if repo not in REPOS:
            raise SystemExit(f"{case.name} needs --repo {repo}=DIR (a checkout with {rel})")
        return getattr(load_checkout(repo, REPOS[repo], rel, HOST_MODULES.get(repo, ()),
                                     definitions_only=rel in DEMO_AT_IMPORT.get(repo, ())), case.kernel)
    if case.file.startswith(TILEBENCH_PREFIX):
        if not TILEBENCH:
            raise SystemExit("set F needs --tilebench DIR (a checkout of Deep-Learning-Profiling-Tools/Tilebench)")
        return getattr(load_tilebench(TILEBENCH, case.file[len(TILEBENCH_PREFIX):]), case.kernel)
    if case.file.startswith(CUTILEGPT_PREFIX):
        if not CUTILEGPT:
            raise SystemExit("set K needs --cutilegpt DIR (a checkout of falcons-eyes/cutileGPT)")
        return getattr(load_cutilegpt(CUTILEGPT, case.file[len(CUTILEGPT_PREFIX):]), case.kernel)
    if case.file.startswith("tilegym:"):
        if not TILEGYM:
            raise SystemExit("set D needs --tilegym DIR (a checkout of NVIDIA/TileGym)")
        return getattr(load_tilegym(TILEGYM, case.file[len("tilegym:"):]), case.kernel)
    if not case.file.startswith("upstream:"):
        return getattr(load_file(os.path.join(ROOT, case.file)), case.kernel)
    if not UPSTREAM:
        raise SystemExit("set C needs --upstream DIR (a checkout of NVIDIA/cutile-python)")
    install_torch()        # upstream's files use torch for dtypes only
    if os.path.join(UPSTREAM, "test") not in sys.path:
        sys.path.insert(0, os.path.join(UPSTREAM, "test"))       # fused_moe.py imports kernels.matmul
    return getattr(load_file(os.path.join(UPSTREAM, case.file[len("upstream:"):])), case.kernel)


def build_artifact(case: Case):
    """The case's cubin artifact (costval_build.py), its kernel read from the checkouts given."""
    return costval_build.build_artifact(case, kernel_of)


def report(paths: List[str], write: Optional[str], cubins: List[str]) -> None:
    text = render(paths, cases(), kernel_of, cubins)
    print(text)
    if write:
        _splice(write, text)


def _splice(doc: str, text: str) -> None:
    begin, end = "<!-- cost-validate:begin -->", "<!-- cost-validate:end -->"
    with open(doc) as f:
        body = f.read()
    if begin not in body:
        raise SystemExit(f"{doc} has no {begin} marker")
    head, rest = body.split(begin, 1)
    tail = rest.split(end, 1)[1]
    with open(doc, "w") as f:
        f.write(head + begin + "\n" + text + "\n" + end + tail)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="bench/cost_validate.py")
    sub = p.add_subparsers(dest="cmd", required=True)
    pr = sub.add_parser("prepare")
    pr.add_argument("--out", default=os.path.join(ROOT, ".costval"))
    pr.add_argument("--only", help=ONLY_HELP)
    pr.add_argument("--keep", action="store_true", help="reuse cubins already in --out")
    ru = sub.add_parser("run")
    ru.add_argument("folder")
    ru.add_argument("--json")
    ru.add_argument("--mock", action="store_true")
    ru.add_argument("--only", help=ONLY_HELP)
    pp = sub.add_parser("predict")
    pp.add_argument("folder")
    pp.add_argument("--json", required=True)
    pp.add_argument("--only", help=ONLY_HELP)
    pp.add_argument("--gpu", default="h200", help="the GPU to predict for (the device tool may lend an H100)")
    rp = sub.add_parser("report")
    # the first file with a case wins: the re-timing of the launches whose cubins tilescope now builds
    # differently (cost_run_retime) first, then the first measurement of each set
    rp.add_argument("results", nargs="*", default=[os.path.join(ROOT, "bench", "results", name) for name in (
        "cost_run_retime_h200.json", "cost_validation_h200.json", "cost_run_e_h200.json", "cost_run_f_h200.json",
        "cost_run_l_h200.json", "cost_run_g_h200.json", "cost_run_h_h200.json", "cost_run_i_h200.json", "cost_run_j_h200.json",
        "cost_run_k_h200.json", "cost_run_setl_h200.json", "cost_run_m_h200.json",
        "cost_run_n_h200.json", "cost_run_o_h200.json", "cost_run_p_h200.json",
        "cost_run_q_h200.json", "cost_run_r_h200.json", "cost_run_s_h200.json", "cost_run_t_h200.json", "cost_run_u_h200.json",
        "cost_run_v_h200.json", "cost_run_w_h200.json", "cost_run_x_h200.json", "cost_run_y_h200.json",
        "cost_run_z_h200.json", "cost_run_odd_h200.json", "cost_run_m90_h200.json", "cost_run_m90b_h200.json",
        "cost_run_m91_h200.json", "cost_run_m94_h200.json", "cost_run_m95_h200.json", "cost_run_aa_h200.json",
        "cost_run_ab_h200.json", "cost_run_ac_h100.json", "cost_run_ad_h100.json",
        "cost_run_ae_h200.json", "cost_run_af_h100.json", "cost_run_ag_h200.json", "cost_run_ah_h200.json",
        "cost_run_ai_h100.json", "cost_run_aj_h100.json", "cost_run_ak_h100.json",
        "cost_run_al_h100.json", "cost_run_am_h100.json", "cost_run_an_h100.json",
        "cost_run_ao_h200.json", "cost_run_ap_h100.json", "cost_run_aq_h100.json",
        "cost_run_ar_h100.json", "cost_run_as_h100.json", "cost_run_at_h100.json",
        "cost_run_au_h100.json", "cost_run_av_h100.json", "cost_run_aw_h100.json", "cost_run_ax_h100.json",
        "cost_run_ay_h100.json", "cost_run_az_h100.json", "cost_run_ba_h100.json", "cost_run_bb_h100.json",
        "cost_run_bc_h100.json", "cost_run_bd_h100.json", "cost_run_be_h100.json", "cost_run_bf_h100.json",
        "cost_run_bg_h100.json", "cost_run_bh_h100.json", "cost_run_bi_h100.json",
        "cost_run_bj_h100.json",
        "cost_run_bk_h100.json",
        "cost_run_bl_h100.json",
        "cost_run_bm_h100.json",
        "cost_run_bn_h100.json",
        "cost_run_bo_h100.json")])
    rp.add_argument("--write")
    rp.add_argument("--cubins", nargs="*", default=[],
                    help="folders of prepared cubins (prepare --out): predictions with the cubin's schedule")
    fa = sub.add_parser("facts", help="the estimate's score with groups of its facts taken from the cubins "
                                      "(which estimates lose the accuracy); reads the measurements report reads")
    fa.add_argument("--cubins", nargs="+", required=True, help="folders of prepared cubins (prepare --out)")
    for sp in (pr, ru, pp, rp, fa):
        sp.add_argument("--upstream", help="a checkout of NVIDIA/cutile-python (validation set C)")
        sp.add_argument("--tilegym", help="a checkout of NVIDIA/TileGym (validation set D)")
        sp.add_argument("--tilebench",
                        help="a checkout of Deep-Learning-Profiling-Tools/Tilebench (validation sets F-J and AA-AE)")
        sp.add_argument("--cutilegpt", help="a checkout of falcons-eyes/cutileGPT (validation sets K and L)")
        sp.add_argument("--repo", action="append", default=[], metavar="NAME=DIR",
                        help="a checkout whose files cases name as NAME:path (repeatable; "
                             + "; ".join(f"set {letter}: {', '.join(repos)}" for letter, repos in REPO_SETS) + ")")
    a = p.parse_args(argv)
    global UPSTREAM, TILEGYM, TILEBENCH, CUTILEGPT
    if a.cutilegpt:
        CUTILEGPT = os.path.abspath(a.cutilegpt)
    if a.tilebench:
        TILEBENCH = os.path.abspath(a.tilebench)
    if a.upstream:
        UPSTREAM = os.path.abspath(a.upstream)
    if a.tilegym:
        TILEGYM = os.path.abspath(a.tilegym)
    for item in a.repo:
        name, sep, folder = item.partition("=")
        if not sep or not name or not os.path.isdir(folder):
            p.error(f"--repo {item}: expected NAME=DIR with an existing directory")
        REPOS[name] = os.path.abspath(folder)
    if a.cmd == "prepare":
        costval_build.prepare(cases(), a.out, a.only, kernel_of, a.keep)
    elif a.cmd == "run":
        costval_run.run(a.folder, a.json, a.only, kernel_of, cases(small=True) if a.mock else None)
    elif a.cmd == "predict":
        with open(os.path.join(a.folder, "cases.json")) as f:
            stored = [c for c in map(case_from_json, json.load(f)) if picked(c, a.only)]
        predict_folder(a.folder, a.json, stored, kernel_of, a.gpu)
    elif a.cmd == "facts":
        print(fact_groups(rp.get_default("results"), cases(), kernel_of, a.cubins))
    else:
        report(a.results, a.write, a.cubins)
    return 0


if __name__ == "__main__":
    sys.exit(main())
