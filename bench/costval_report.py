"""The predictions before a run and the predicted / measured tables of docs/cost-model.md
(bench/cost_validate.py predict, report)."""
from __future__ import annotations

import json
import math
import os
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the copy microbenchmark's share of the DRAM's published rate on the H200, taken for any GPU timed
COPY_EFFICIENCY = 0.8678
GROUPS = (("validate", "Set A (27 kernels written before the model; version 1 was frozen before their times were "
                       "opened)"),
          ("validate-b", "Set B (20 held-out kernels, opened after version 2 was frozen)"),
          ("validate-c", "Set C (16 kernels of upstream cuTile's test/kernels; blind for version 3: 7 of 16)"),
          ("validate-d", "Set D (10 kernels of TileGym; blind for version 4: 5 of 10)"),
          ("validate-e", "Set E (10 streaming kernels of TileGym; blind for version 5: 3 of 10, 7 beyond 2×)"),
          ("validate-f", "Set F (15 launches of 14 TileBench kernels; blind for version 6: predictions committed "
                         "before the run, bench/results/cost_setf_predictions.json)"),
          ("validate-launch", "Sets A-F as tilescope's launch builds them (98 launches: aligned, divisible "
                              "contiguous arrays; measured when version 7's vector-load and accelerator-copy rules "
                              "were written: 51 of 98, 17 beyond 2x; the rest of version 7 was fitted on them)"),
          ("validate-tma", "Upstream's bytecode for aligned arrays without divisibility facts (8 kernels of set A; "
                           "in the goal from version 7)"),
          ("validate-g", "Set G (12 more TileBench kernels, dynamic shapes; blind for version 7, predictions "
                         "committed before the run in bench/results/cost_setg_predictions.json: 4 of 12, 3 beyond 2x)"),
          ("validate-g-launch", "Set G as tilescope's launch builds it (aligned, divisible contiguous arrays; blind "
                                "for version 7, same commit: 6 of 12, 0 beyond 2x)"),
          ("validate-h", "Set H (12 other authors' TileBench kernels, dynamic shapes; blind for version 8: predictions "
                         "committed before the run, bench/results/cost_seth_predictions.json: 8 of 12, 3 beyond 2x)"),
          ("validate-h-launch", "Set H as tilescope's launch builds it (blind for version 8, same commit: 6 of 12, "
                                "2 beyond 2x)"),
          ("validate-i", "Set I (12 TileBench kernels by other authors, dynamic shapes; blind for version 10: "
                         "predictions committed before the run, bench/results/cost_seti_predictions.json: 4 of 12, "
                         "2 beyond 2x)"),
          ("validate-i-launch", "Set I as tilescope's launch builds it (blind for version 10, same commit: 9 of 12, "
                                "2 beyond 2x)"),
          ("validate-j", "Set J (9 TileBench files no earlier set used, dynamic shapes; blind for version 11: "
                         "predictions committed before the run, bench/results/cost_setj_predictions.json: 6 of 9, "
                         "1 beyond 2x)"),
          ("validate-j-launch", "Set J as tilescope's launch builds it (blind for version 11, same commit: 6 of 9, "
                                "1 beyond 2x)"),
          ("validate-k", "Set K (12 kernels of four repositories no earlier set used, dynamic shapes; blind for "
                         "version 13: predictions committed before the times were opened, "
                         "bench/results/cost_setk_predictions.json: 5 of 12, 6 beyond 2x)"),
          ("validate-k-launch", "Set K as tilescope's launch builds it (blind for version 13, same commit: 3 of 12, "
                                "5 beyond 2x)"),
          ("validate-l", "Set L (11 TileGym and cutileGPT kernels no earlier set used, dynamic shapes; blind for "
                         "version 14: predictions committed before the times were opened, "
                         "bench/results/cost_setl_predictions.json: 4 of 11, 3 beyond 2x)"),
          ("validate-l-launch", "Set L as tilescope's launch builds it (blind for version 14, same commit: 5 of 11, "
                                "5 beyond 2x)"),
          ("validate-m", "Set M (12 kernels of three repositories no earlier set used, dynamic shapes; blind for "
                         "version 16: predictions committed before the times were opened, "
                         "bench/results/cost_setm_predictions.json: 8 of 12, 2 beyond 2x)"),
          ("validate-m-launch", "Set M as tilescope's launch builds it (blind for version 16, same commit: 5 of 12, "
                                "4 beyond 2x)"),
          ("validate-n", "Set N (11 kernels of three repositories no earlier set used, dynamic shapes; blind for "
                         "version 17: predictions committed before the times were opened, "
                         "bench/results/cost_setn_predictions.json: 7 of 11, 2 beyond 2x)"),
          ("validate-n-launch", "Set N as tilescope's launch builds it (blind for version 17, same commit: 6 of 11, "
                                "3 beyond 2x)"),
          ("validate-o", "Set O (12 kernels of two repositories no earlier set used, dynamic shapes; blind for "
                         "version 18: predictions committed before the times were opened, "
                         "bench/results/cost_seto_predictions.json: 5 of 12, 3 beyond 2x)"),
          ("validate-o-launch", "Set O as tilescope's launch builds it (blind for version 18, same commit: 5 of 12, "
                                "3 beyond 2x)"),
          ("validate-p", "Set P (12 kernels of two repositories no earlier set used, dynamic shapes; blind for "
                         "version 19: predictions committed before the times were opened, "
                         "bench/results/cost_setp_predictions.json: 9 of 12, 1 beyond 2x)"),
          ("validate-p-launch", "Set P as tilescope's launch builds it (blind for version 19, same commit: 9 of 12, "
                                "1 beyond 2x)"),
          ("validate-q", "Set Q (8 TileGym kernels no earlier set used, dynamic shapes; blind for version 20: "
                         "predictions committed before the times were opened, "
                         "bench/results/cost_setq_predictions.json: 2 of 8, 5 beyond 2x)"),
          ("validate-q-launch", "Set Q as tilescope's launch builds it (blind for version 20, same commit: 2 of 8, "
                                "4 beyond 2x)"),
          ("validate-r", "Set R (12 Along-whu/cutile exercises no earlier set used, dynamic shapes; blind for version "
                         "22: predictions committed before the times were opened, "
                         "bench/results/cost_setr_predictions.json: 11 of 12, 1 beyond 2x)"),
          ("validate-r-launch", "Set R as tilescope's launch builds it (blind for version 22, same commit: 10 of 12, "
                                "0 beyond 2x)"),
          ("validate-s", "Set S (11 kernels no earlier set used, of Along-whu/cutile's mHC and TileGym's suites, "
                         "dynamic shapes; blind for version 23: predictions committed before the times were "
                         "taken, bench/results/cost_sets_predictions.json: 6 of 11, 4 beyond 2x)"),
          ("validate-s-launch", "Set S as tilescope's launch builds it (blind for version 23, same commit: 6 of 11, "
                                "3 beyond 2x)"),
          ("validate-t", "Set T (11 kernels of four repositories no earlier set used, dynamic shapes; blind for "
                         "version 27: predictions committed before the times were taken, "
                         "bench/results/cost_sett_predictions.json: 6 of 11, 2 beyond 2x)"),
          ("validate-t-launch", "Set T as tilescope's launch builds it (blind for version 27, same commit: 8 of 11, "
                                "0 beyond 2x)"),
          ("validate-u", "Set U (11 kernels no earlier set used, of a course's GLM-ASR example, a TileGym fork and "
                         "TileGym's skill examples, dynamic shapes; blind for version 29: predictions committed "
                         "before the times were taken, bench/results/cost_setu_predictions.json: 5 of 11, "
                         "2 beyond 2x)"),
          ("validate-u-launch", "Set U as tilescope's launch builds it (blind for version 29, same commit: 8 of 11, "
                                "1 beyond 2x)"),
          ("validate-v", "Set V (7 kernels of a stencil DSL's solver generators and a book's chapters, no earlier "
                         "set used, dynamic shapes; blind for version 31: predictions committed before the times "
                         "were taken, bench/results/cost_setv_predictions.json: 4 of 7, 2 beyond 2x)"),
          ("validate-v-launch", "Set V as tilescope's launch builds it (blind for version 31, same commit: 2 of 7, "
                                "2 beyond 2x)"),
          ("validate-w", "Set W (13 kernels of Inductor's fused kernels ported to cuTile, a course's "
                         "FlashAttention-2, a three-pass attention and vLLM's block-scaled FP8 GEMM, no earlier set "
                         "used, dynamic shapes; blind for version 42: predictions committed before the times were "
                         "taken, bench/results/cost_setw_predictions.json: 5 of 13, 6 beyond 2x)"),
          ("validate-w-launch", "Set W as tilescope's launch builds it (blind for version 42, same commit: 8 of 13, "
                                "1 beyond 2x)"),
          ("validate-x", "Set X (10 kernels of Megatron-LM's fused mHC, an MLP training lab, an MPM "
                         "particle-to-grid scatter and a Sinkhorn-Knopp forward and backward, no earlier set used, "
                         "dynamic shapes; blind for version 47: predictions committed before the times were "
                         "taken, bench/results/cost_setx_predictions.json: 7 of 10, 2 beyond 2x)"),
          ("validate-x-launch", "Set X as tilescope's launch builds it (blind for version 47, same commit: 5 of 10, "
                                "1 beyond 2x)"),
          ("validate-y", "Set Y (13 kernels of 12 files of Inductor's fused kernels ported to cuTile, drawn at "
                         "random from the 1,719 set W left, dynamic shapes; blind for version 54: predictions "
                         "committed before the times were taken, bench/results/cost_sety_predictions.json: 9 of 13, "
                         "1 beyond 2x)"),
          ("validate-y-launch", "Set Y as tilescope's launch builds it (blind for version 54, same commit: 10 of 13, "
                                "none beyond 2x)"),
          ("validate-z", "Set Z (12 kernels of a Qwen3 training patch set's RMSNorm, RoPE, SwiGLU and "
                         "cross-entropy, a kernels repository's batched GEMM, GQA flash attention, RoPE, softmax and "
                         "vector add and an IR-dump demo's column softmax, no earlier set used, dynamic shapes; "
                         "blind for version 56: "
                         "predictions committed before the times were taken, "
                         "bench/results/cost_setz_predictions.json: 7 of 12, 1 beyond 2x)"),
          ("validate-z-launch", "Set Z as tilescope's launch builds it (blind for version 56, same commit: "
                                "9 of 12, 1 beyond 2x)"),
          ("validate-aa", "Set AA (20 TileBench kernels, one of each operator no earlier set used, drawn at random: "
                          "convolutions in 1, 2 and 3 dimensions, max pooling, batch norm, a bitonic sort's pass, "
                          "block-sparse attention, row-wise and block-scaled dequantisation, a KV-cache scatter, "
                          "dropout, a flash-decoding merge, a gated SiLU, linear attention, a 2-bit int8 GEMM, MoE "
                          "top-2 gating, a float16 cast, a radix sort's scatter, a float16 GEMM and a top-k "
                          "sort's pass; dynamic shapes; blind for version 64: predictions committed before the "
                          "times were taken, bench/results/cost_setaa_predictions.json: 12 of 20, 3 beyond 2x)"),
          ("validate-aa-launch", "Set AA as tilescope's launch builds it (blind for version 64, same commit: "
                                 "11 of 20, 3 beyond 2x)"),
          ("validate-ab", "Set AB (five versions each of set AA's 1-D convolution and flash-decoding merge at one "
                          "case, to order them; dynamic shapes; blind for version 64: predictions committed before "
                          "the times were taken, bench/results/cost_setab_predictions.json: 6 of 10, 2 beyond 2x)"),
          ("validate-ab-launch", "Set AB as tilescope's launch builds it (blind for version 64, same commit: "
                                 "2 of 10, 5 beyond 2x)"),
          ("validate-ac", "Set AC (25 TileBench kernels, one more of each operator sets F-K read, drawn at random "
                          "from the files no set used; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for versions 65 and 66, which predict them alike: predictions "
                          "committed before the times were taken, bench/results/cost_setac_h100_predictions.json: "
                          "20 of 25, 2 beyond 2x)"),
          ("validate-ac-launch", "Set AC as tilescope's launch builds it (on the H100; blind for versions 65 and 66, "
                                 "same commit: 21 of 25, 1 beyond 2x)"),
          ("validate-ad", "Set AD (42 TileBench kernels, one more of each of the 42 operators with a file no set "
                          "used, drawn at random; dynamic shapes; timed on an H100, as the device tool lent one, and "
                          "predicted for it; blind for version 68: predictions committed before the times were "
                          "taken, bench/results/cost_setad_h100_predictions.json: 30 of 42, 3 beyond 2x)"),
          ("validate-ad-launch", "Set AD as tilescope's launch builds it (on the H100; blind for version 68, same "
                                 "commit: 34 of 42, 2 beyond 2x)"),
          ("validate-ae", "Set AE (38 TileBench kernels, one more of each operator with a file left whose kernel no "
                          "set had timed, drawn at random; dynamic shapes; blind for version 70: predictions "
                          "committed before the times were taken, bench/results/cost_setae_predictions.json and "
                          "cost_setae_h100_predictions.json: 27 of 38, 3 beyond 2x)"),
          ("validate-ae-launch", "Set AE as tilescope's launch builds it (blind for version 70, same commit: "
                                 "21 of 38, 6 beyond 2x)"),
          ("validate-af", "Set AF (the 11 kernels of a mixture-of-experts token permutation in a TransformerEngine "
                          "fork that cuTile 1.7 builds, with the routing data its pipeline hands each; dynamic "
                          "shapes; timed on an H100, as the device tool lent one, and predicted for it; blind for "
                          "version 74: predictions committed before the times were taken, "
                          "bench/results/cost_setaf_h100_predictions.json: 7 of 11, 4 beyond 2x)"),
          ("validate-af-launch", "Set AF as tilescope's launch builds it (on the H100; blind for version 74, same "
                                 "commit: 8 of 11, 3 beyond 2x)"),
          ("validate-ag", "Set AG (32 kernels of 25 better-benchmark files drawn at random, each at the launch its "
                          "oracle made at its first shape point; dynamic shapes; blind for version 77: predictions "
                          "committed before the times were taken, bench/results/cost_setag_predictions.json and "
                          "cost_setag_h100_predictions.json: 25 of 32, 4 beyond 2x)"),
          ("validate-ag-launch", "Set AG as tilescope's launch builds it (blind for version 77, same commit: "
                                 "28 of 32, none beyond 2x)"),
          ("validate-ah", "Set AH (32 kernels of 26 more better-benchmark files drawn at random as for AG; dynamic "
                          "shapes; blind for version 77: predictions committed before the times were taken, "
                          "bench/results/cost_setah_predictions.json and cost_setah_h100_predictions.json: 25 of 32, "
                          "1 beyond 2x)"),
          ("validate-ah-launch", "Set AH as tilescope's launch builds it (blind for version 77, same commit: "
                                 "25 of 32, 2 beyond 2x)"),
          ("validate-ai", "Set AI (32 kernels of 25 more better-benchmark files, drawn as AG and AH were after "
                          "their times were taken; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for version 77: predictions committed before the times were "
                          "taken, bench/results/cost_setai_h100_predictions.json: 26 of 32, 1 beyond 2x; one "
                          "kernel's build as written did not finish in tileiras)"),
          ("validate-ai-launch", "Set AI as tilescope's launch builds it (on the H100; blind for version 77, same "
                                 "commit: 27 of 33, none beyond 2x)"),
          ("validate-aj", "Set AJ (35 kernels of 26 more better-benchmark files, drawn as AG, AH and AI were after "
                          "AI's times were taken; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for version 78: predictions committed before the times were "
                          "taken, bench/results/cost_setaj_h100_predictions.json: 27 of 35, 2 beyond 2x)"),
          ("validate-aj-launch", "Set AJ as tilescope's launch builds it (on the H100; blind for version 78, same "
                                 "commit: 27 of 35, 1 beyond 2x)"),
          ("validate-ak", "Set AK (32 kernels of 27 more better-benchmark files, drawn as AG to AJ were after "
                          "AJ's times were taken; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for version 79: predictions committed before the times were "
                          "taken, bench/results/cost_setak_h100_predictions.json: 26 of 32, 3 beyond 2x)"),
          ("validate-ak-launch", "Set AK as tilescope's launch builds it (on the H100; blind for version 79, same "
                                 "commit: 26 of 32, 2 beyond 2x)"),
          ("validate-al", "Set AL (32 kernels of 30 more better-benchmark files, drawn as AG to AK were after "
                          "AK's times were taken; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for version 80: predictions committed before the times were "
                          "taken, bench/results/cost_setal_h100_predictions.json: 29 of 32, 1 beyond 2x)"),
          ("validate-al-launch", "Set AL as tilescope's launch builds it (on the H100; blind for version 80, same "
                                 "commit: 26 of 32, 1 beyond 2x)"),
          ("validate-am", "Set AM (34 kernels of 20 more better-benchmark files, drawn as AG to AL were after "
                          "AL's times were taken; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for version 81: predictions committed before the times were "
                          "taken, bench/results/cost_setam_h100_predictions.json: 24 of 34, 3 beyond 2x)"),
          ("validate-am-launch", "Set AM as tilescope's launch builds it (on the H100; blind for version 81, same "
                                 "commit: 26 of 34, 4 beyond 2x)"),
          ("validate-an", "Set AN (32 kernels of 22 more better-benchmark files, drawn as AG to AM were after "
                          "AM's times were taken; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for version 82: predictions committed before the times were "
                          "taken, bench/results/cost_setan_h100_predictions.json: 28 of 32, 0 beyond 2x)"),
          ("validate-an-launch", "Set AN as tilescope's launch builds it (on the H100; blind for version 82, same "
                                 "commit: 28 of 32, 1 beyond 2x)"),
          ("validate-ao", "Set AO (32 kernels of 25 more better-benchmark files, drawn as AG to AN were after "
                          "AN's times were taken; dynamic shapes; blind for version 83: predictions committed before "
                          "the times were taken, bench/results/cost_setao_predictions.json: 27 of 32, 2 beyond 2x)"),
          ("validate-ao-launch", "Set AO as tilescope's launch builds it (blind for version 83, same commit: "
                                 "27 of 32, 1 beyond 2x)"),
          ("validate-ap", "Set AP (32 kernels of 24 more better-benchmark files, drawn as AG to AO were after "
                          "AO's times were taken; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for version 84: predictions committed before the times were "
                          "taken, bench/results/cost_setap_h100_predictions.json: 25 of 32, 1 beyond 2x)"),
          ("validate-ap-launch", "Set AP as tilescope's launch builds it (on the H100; blind for version 84, same "
                                 "commit: 24 of 32, 3 beyond 2x)"),
          ("validate-aq", "Set AQ (33 kernels of 23 more better-benchmark files, drawn as AG to AP were after "
                          "AP's times were taken; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for version 84: predictions committed before the times were "
                          "taken, bench/results/cost_setaq_h100_predictions.json: 31 of 33, 1 beyond 2x)"),
          ("validate-aq-launch", "Set AQ as tilescope's launch builds it (on the H100; blind for version 84, same "
                                 "commit: 27 of 33, 1 beyond 2x)"),
          ("validate-ar", "Set AR (32 kernels of 23 more better-benchmark files, drawn as AG to AQ were after "
                          "AQ's times were taken; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for version 85: predictions committed before the times were "
                          "taken, bench/results/cost_setar_h100_predictions.json: 28 of 32, 2 beyond 2x)"),
          ("validate-ar-launch", "Set AR as tilescope's launch builds it (on the H100; blind for version 85, same "
                                 "commit: 26 of 32, 3 beyond 2x)"),
          ("validate-as", "Set AS (37 kernels of 21 more better-benchmark files, drawn as AG to AR were after "
                          "AR's times were taken; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for version 86: predictions committed before the times were "
                          "taken, bench/results/cost_setas_h100_predictions.json: 36 of 37, 1 beyond 2x)"),
          ("validate-as-launch", "Set AS as tilescope's launch builds it (on the H100; blind for version 86, same "
                                 "commit: 35 of 37, 1 beyond 2x)"),
          ("validate-at", "Set AT (33 kernels of 26 more better-benchmark files, drawn as AG to AS were; dynamic "
                          "shapes; timed on an H100 and predicted for it; blind for version 86: predictions "
                          "committed before the times were taken, bench/results/cost_setat_h100_predictions.json: "
                          "26 of 33, 1 beyond 2x)"),
          ("validate-at-launch", "Set AT as tilescope's launch builds it (on the H100; blind for version 86, same "
                                 "commit: 27 of 33, 3 beyond 2x)"),
          ("validate-au", "Set AU (32 kernels of 25 more better-benchmark files, drawn as AG to AT were after "
                          "AT's times were taken; dynamic shapes; timed on an H100, as the device tool lent one, "
                          "and predicted for it; blind for version 87: predictions committed before the times were "
                          "taken, bench/results/cost_setau_h100_predictions.json: 29 of 32, 1 beyond 2x)"),
          ("validate-au-launch", "Set AU as tilescope's launch builds it (on the H100; blind for version 87, same "
                                 "commit: 26 of 32, 1 beyond 2x)"),
          ("validate-av", "Set AV (32 kernels of 24 more better-benchmark files, drawn as AG to AU were after "
                          "AU's times were taken; dynamic shapes; on the H100; blind for version 87: predictions "
                          "committed before the times were taken, bench/results/cost_setav_h100_predictions.json: "
                          "27 of 32, 1 beyond 2x)"),
          ("validate-av-launch", "Set AV as tilescope's launch builds it (on the H100; blind for version 87, same "
                                 "commit: 29 of 32, 3 beyond 2x)"),
          ("validate-aw", "Set AW (33 kernels of 22 more better-benchmark files, drawn as AG to AV were after "
                          "AV was drawn; dynamic shapes; on the H100; blind for version 87: predictions committed "
                          "before the times were taken, bench/results/cost_setaw_h100_predictions.json: 20 of 33, "
                          "4 beyond 2x)"),
          ("validate-aw-launch", "Set AW as tilescope's launch builds it (on the H100; blind for version 87, same "
                                 "commit: 18 of 33, 3 beyond 2x)"),
          ("validate-ax", "Set AX (32 kernels of 21 more better-benchmark files, drawn as AG to AW were after "
                          "AW was drawn; dynamic shapes; on the H100; blind for version 87: predictions committed "
                          "before the times were taken, bench/results/cost_setax_h100_predictions.json: 28 of 32, "
                          "2 beyond 2x)"),
          ("validate-ax-launch", "Set AX as tilescope's launch builds it (on the H100; blind for version 87, same "
                                 "commit: 29 of 32, none beyond 2x)"),
          ("validate-ay", "Set AY (32 kernels of 17 more better-benchmark files, drawn as AG to AX were after "
                          "AV-AX's times were taken; dynamic shapes; on the H100; blind for version 89: predictions "
                          "committed before the times were taken, bench/results/cost_setay_h100_predictions.json: "
                          "27 of 32, 1 beyond 2x)"),
          ("validate-ay-launch", "Set AY as tilescope's launch builds it (on the H100; blind for version 89, same "
                                 "commit: 27 of 32, 2 beyond 2x)"),
          ("validate-az", "Set AZ (32 kernels of 26 more better-benchmark files, drawn as AG to AY were after "
                          "AY was drawn; dynamic shapes; on the H100; blind for version 89: predictions committed "
                          "before the times were taken, bench/results/cost_setaz_h100_predictions.json: 28 of 32, "
                          "none beyond 2x)"),
          ("validate-az-launch", "Set AZ as tilescope's launch builds it (on the H100; blind for version 89, same "
                                 "commit: 25 of 32, 1 beyond 2x)"),
          ("validate-ba", "Set BA (32 kernels of 22 more better-benchmark files, drawn as AG to AZ were after "
                          "AY's and AZ's times were taken; dynamic shapes; on the H100; blind for version 89: "
                          "predictions committed before the times were taken, "
                          "bench/results/cost_setba_h100_predictions.json: 27 of 32, none beyond 2x)"),
          ("validate-ba-launch", "Set BA as tilescope's launch builds it (on the H100; blind for version 89, same "
                                 "commit: 27 of 32, 1 beyond 2x)"),
          ("validate-bb", "Set BB (33 kernels of 22 more better-benchmark files, drawn as AG to BA were after "
                          "BA was drawn; dynamic shapes; on the H100; blind for version 89: predictions committed "
                          "before the times were taken, bench/results/cost_setbb_h100_predictions.json: 28 of 33, "
                          "1 beyond 2x)"),
          ("validate-bb-launch", "Set BB as tilescope's launch builds it (on the H100; blind for version 89, same "
                                 "commit: 26 of 33, none beyond 2x)"),
          ("validate-bc", "Set BC (32 kernels of 26 more better-benchmark files, drawn as AG to BB were after "
                          "BB was drawn; dynamic shapes; on the H100; blind for version 90: predictions committed "
                          "before the times were taken, bench/results/cost_setbc_h100_predictions.json: 27 of 32, "
                          "2 beyond 2x)"),
          ("validate-bc-launch", "Set BC as tilescope's launch builds it (on the H100; blind for version 90, same "
                                 "commit: 28 of 32, none beyond 2x)"),
          ("validate-bd", "Set BD (32 kernels of 23 more better-benchmark files, drawn as AG to BC were after "
                          "BC was drawn; dynamic shapes; on the H100; blind for version 90: predictions committed "
                          "before the times were taken, bench/results/cost_setbd_h100_predictions.json: 26 of 31 "
                          "(tileiras crashes building the 32nd), none beyond 2x)"),
          ("validate-bd-launch", "Set BD as tilescope's launch builds it (on the H100; blind for version 90, same "
                                 "commit: 30 of 31, none beyond 2x)"),
          ("validate-be", "Set BE (32 kernels of 27 more better-benchmark files, drawn as AG to BD were after "
                          "BD was drawn; dynamic shapes; on the H100; blind for version 91: predictions committed "
                          "before the times were taken, bench/results/cost_setbe_h100_predictions.json: 28 of 32, "
                          "1 beyond 2x)"),
          ("validate-be-launch", "Set BE as tilescope's launch builds it (on the H100; blind for version 91, same "
                                 "commit: 27 of 32, 2 beyond 2x)"),
          ("validate-bf", "Set BF (32 kernels of 21 more better-benchmark files, drawn as AG to BE were after "
                          "BE was drawn; dynamic shapes; on the H100; blind for version 91: predictions committed "
                          "before the times were taken, bench/results/cost_setbf_h100_predictions.json: 31 of 32, "
                          "none beyond 2x)"),
          ("validate-bf-launch", "Set BF as tilescope's launch builds it (on the H100; blind for version 91, same "
                                 "commit: 29 of 32, none beyond 2x)"),
          ("validate-bg", "Set BG (32 kernels of 26 more better-benchmark files, drawn as AG to BF were after "
                          "BF was drawn; dynamic shapes; on the H100; blind for version 93: predictions committed "
                          "before the times were taken, bench/results/cost_setbg_h100_predictions.json: 25 of 32, "
                          "2 beyond 2x)"),
          ("validate-bg-launch", "Set BG as tilescope's launch builds it (on the H100; blind for version 93, same "
                                 "commit: 28 of 32, 1 beyond 2x)"),
          ("validate-bh", "Set BH (32 kernels of 24 more better-benchmark files, drawn as AG to BG were after "
                          "BG was drawn; dynamic shapes; on the H100; blind for version 95: predictions committed "
                          "before the times were taken, bench/results/cost_setbh_h100_predictions.json: 26 of 32, "
                          "2 beyond 2x)"),
          ("validate-bh-launch", "Set BH as tilescope's launch builds it (on the H100; blind for version 95, same "
                                 "commit: 27 of 32, 2 beyond 2x)"),
          ("validate-bi", "Set BI (32 kernels of 27 more better-benchmark files, drawn as AG to BH were after "
                          "BH was drawn; dynamic shapes; on the H100; blind for version 96: predictions committed "
                          "before the times were taken, bench/results/cost_setbi_h100_predictions.json: 26 of 32, "
                          "1 beyond 2x)"),
          ("validate-bi-launch", "Set BI as tilescope's launch builds it (on the H100; blind for version 96, same "
                                 "commit: 28 of 32, 0 beyond 2x)"),
          ("validate-bj", "Set BJ (32 kernels of 22 more better-benchmark files, drawn as AG to BI were after "
                          "BI was drawn; dynamic shapes; on the H100; blind for version 97: predictions committed "
                          "before the times were taken, bench/results/cost_setbj_h100_predictions.json: 25 of 32, "
                          "0 beyond 2x)"),
          ("validate-bj-launch", "Set BJ as tilescope's launch builds it (on the H100; blind for version 97, same "
                                 "commit: 25 of 32, 0 beyond 2x)"),
          ("validate-bk", "Set BK (32 kernels of 23 more better-benchmark files, drawn as AG to BJ were after "
                          "BJ was drawn; dynamic shapes; on the H100; blind for version 98: predictions committed "
                          "before the times were taken, bench/results/cost_setbk_h100_predictions.json: 27 of 32, "
                          "0 beyond 2x)"),
          ("validate-bk-launch", "Set BK as tilescope's launch builds it (on the H100; blind for version 98, same "
                                 "commit: 23 of 32, 1 beyond 2x)"),
          ("validate-bl", "Set BL (32 kernels of 23 more better-benchmark files, drawn as AG to BK were after "
                          "BK was drawn; dynamic shapes; on the H100; blind for version 98: predictions committed "
                          "before the times were taken, bench/results/cost_setbl_h100_predictions.json: 28 of 32, "
                          "0 beyond 2x)"),
          ("validate-bl-launch", "Set BL as tilescope's launch builds it (on the H100; blind for version 98, same "
                                 "commit: 27 of 32, 0 beyond 2x)"),
          ("validate-bm", "Set BM (32 kernels of 22 more better-benchmark files, drawn as AG to BL were after "
                          "BL was drawn; dynamic shapes; on the H100; blind for version 101: predictions committed "
                          "before the times were taken, bench/results/cost_setbm_h100_predictions.json: 28 of the 31 "
                          "that launch, 0 beyond 2x; one build spills past a thread's 512 KiB of local memory)"),
          ("validate-bm-launch", "Set BM as tilescope's launch builds it (on the H100; blind for version 101, same "
                                 "commit: 28 of 32, 0 beyond 2x)"),
          ("validate-bn", "Set BN (32 kernels of 22 more better-benchmark files, drawn as AG to BM were after "
                          "BM was drawn; dynamic shapes; on the H100; blind for version 101: predictions committed "
                          "before the times were taken, bench/results/cost_setbn_h100_predictions.json: 29 of 32, "
                          "1 beyond 2x)"),
          ("validate-bn-launch", "Set BN as tilescope's launch builds it (on the H100; blind for version 101, same "
                                 "commit: 31 of 32, 0 beyond 2x)"),
          ("validate-bo", "Set BO (32 kernels of 28 more better-benchmark files, drawn as AG to BN were after "
                          "BN was drawn; dynamic shapes; on the H100; blind for version 101: predictions committed "
                          "before the times were taken, bench/results/cost_setbo_h100_predictions.json: 29 of 32, "
                          "1 beyond 2x)"),
          ("validate-bo-launch", "Set BO as tilescope's launch builds it (on the H100; blind for version 101, same "
                                 "commit: 30 of 32, 1 beyond 2x)"))
GOAL_GROUPS = ("validate", "validate-b", "validate-c", "validate-d", "validate-e", "validate-f", "validate-launch",
               "validate-tma", "validate-g", "validate-g-launch", "validate-h", "validate-h-launch", "validate-i",
               "validate-i-launch", "validate-j", "validate-j-launch", "validate-k", "validate-k-launch",
               "validate-l", "validate-l-launch", "validate-m", "validate-m-launch", "validate-n", "validate-n-launch",
               "validate-o", "validate-o-launch", "validate-p", "validate-p-launch", "validate-q", "validate-q-launch",
               "validate-r", "validate-r-launch", "validate-s", "validate-s-launch", "validate-t", "validate-t-launch",
               "validate-u", "validate-u-launch", "validate-v", "validate-v-launch", "validate-w",
               "validate-w-launch", "validate-x", "validate-x-launch", "validate-y", "validate-y-launch",
               "validate-z", "validate-z-launch", "validate-aa", "validate-aa-launch", "validate-ab",
               "validate-ab-launch", "validate-ac", "validate-ac-launch", "validate-ad",
               "validate-ad-launch", "validate-ae", "validate-ae-launch", "validate-af", "validate-af-launch",
               "validate-ag", "validate-ag-launch", "validate-ah", "validate-ah-launch", "validate-ai",
               "validate-ai-launch", "validate-aj", "validate-aj-launch", "validate-ak", "validate-ak-launch",
               "validate-al", "validate-al-launch", "validate-am", "validate-am-launch",
               "validate-an", "validate-an-launch", "validate-ao", "validate-ao-launch",
               "validate-ap", "validate-ap-launch", "validate-aq", "validate-aq-launch",
               "validate-ar", "validate-ar-launch", "validate-as", "validate-as-launch", "validate-at",
               "validate-at-launch", "validate-au", "validate-au-launch",
               "validate-av", "validate-av-launch", "validate-aw", "validate-aw-launch",
               "validate-ax", "validate-ax-launch", "validate-ay", "validate-ay-launch",
               "validate-az", "validate-az-launch", "validate-ba", "validate-ba-launch",
               "validate-bb", "validate-bb-launch",
               "validate-bc", "validate-bc-launch", "validate-bd", "validate-bd-launch", "validate-be",
               "validate-be-launch", "validate-bf", "validate-bf-launch", "validate-bg", "validate-bg-launch",
               "validate-bh", "validate-bh-launch", "validate-bi", "validate-bi-launch", "validate-bj",
               "validate-bj-launch", "validate-bk", "validate-bk-launch", "validate-bl",
               "validate-bl-launch", "validate-bm", "validate-bm-launch", "validate-bn",
               "validate-bn-launch", "validate-bo", "validate-bo-launch")
MODEL_VERSION = 106
SUBTOTALS = (("Sets A-F, dynamic shapes (the version 6 tables)", GOAL_GROUPS[:6]),
             ("Builds as a launch makes them (A-BO as launched, upstream's aligned bytecode)",
              ("validate-launch", "validate-tma", "validate-g-launch", "validate-h-launch", "validate-i-launch",
               "validate-j-launch", "validate-k-launch", "validate-l-launch", "validate-m-launch",
               "validate-n-launch", "validate-o-launch", "validate-p-launch", "validate-q-launch",
               "validate-r-launch", "validate-s-launch", "validate-t-launch", "validate-u-launch",
               "validate-v-launch", "validate-w-launch", "validate-x-launch", "validate-y-launch",
               "validate-z-launch", "validate-aa-launch", "validate-ab-launch", "validate-ac-launch",
               "validate-ad-launch", "validate-ae-launch", "validate-af-launch", "validate-ag-launch",
               "validate-ah-launch", "validate-ai-launch", "validate-aj-launch", "validate-ak-launch",
               "validate-al-launch", "validate-am-launch", "validate-an-launch",
               "validate-ao-launch", "validate-ap-launch", "validate-aq-launch",
               "validate-ar-launch", "validate-as-launch", "validate-at-launch",
               "validate-au-launch", "validate-av-launch",
               "validate-aw-launch", "validate-ax-launch", "validate-ay-launch",
               "validate-az-launch", "validate-ba-launch", "validate-bb-launch",
               "validate-bc-launch", "validate-bd-launch", "validate-be-launch", "validate-bf-launch",
               "validate-bg-launch", "validate-bh-launch", "validate-bi-launch", "validate-bj-launch",
               "validate-bk-launch", "validate-bl-launch", "validate-bm-launch",
               "validate-bn-launch", "validate-bo-launch")),
             ("Set G (dynamic and as launched; blind for version 7)", ("validate-g", "validate-g-launch")),
             ("Set H (dynamic and as launched; blind for version 8)", ("validate-h", "validate-h-launch")),
             ("Set I (dynamic and as launched; blind for version 10)", ("validate-i", "validate-i-launch")),
             ("Set J (dynamic and as launched; blind for version 11)", ("validate-j", "validate-j-launch")),
             ("Set K (dynamic and as launched; blind for version 13)", ("validate-k", "validate-k-launch")),
             ("Set L (dynamic and as launched; blind for version 14)", ("validate-l", "validate-l-launch")),
             ("Set M (dynamic and as launched; blind for version 16)", ("validate-m", "validate-m-launch")),
             ("Set N (dynamic and as launched; blind for version 17)", ("validate-n", "validate-n-launch")),
             ("Set O (dynamic and as launched; blind for version 18)", ("validate-o", "validate-o-launch")),
             ("Set P (dynamic and as launched; blind for version 19)", ("validate-p", "validate-p-launch")),
             ("Set Q (dynamic and as launched; blind for version 20)", ("validate-q", "validate-q-launch")),
             ("Set R (dynamic and as launched; blind for version 22)", ("validate-r", "validate-r-launch")),
             ("Set S (dynamic and as launched; blind for version 23)", ("validate-s", "validate-s-launch")),
             ("Set T (dynamic and as launched; blind for version 27)", ("validate-t", "validate-t-launch")),
             ("Set U (dynamic and as launched; blind for version 29)", ("validate-u", "validate-u-launch")),
             ("Set V (dynamic and as launched; blind for version 31)", ("validate-v", "validate-v-launch")),
             ("Set W (dynamic and as launched; blind for version 42)", ("validate-w", "validate-w-launch")),
             ("Set X (dynamic and as launched; blind for version 47)", ("validate-x", "validate-x-launch")),
             ("Set Y (dynamic and as launched; blind for version 54)", ("validate-y", "validate-y-launch")),
             ("Set Z (dynamic and as launched; blind for version 56)", ("validate-z", "validate-z-launch")),
             ("Set AA (dynamic and as launched; blind for version 64)", ("validate-aa", "validate-aa-launch")),
             ("Set AB (dynamic and as launched; blind for version 64)", ("validate-ab", "validate-ab-launch")),
             ("Set AC (dynamic and as launched, on an H100; blind for versions 65 and 66)",
              ("validate-ac", "validate-ac-launch")),
             ("Set AD (dynamic and as launched, on an H100; blind for version 68)",
              ("validate-ad", "validate-ad-launch")),
             ("Set AE (dynamic and as launched; blind for version 70)", ("validate-ae", "validate-ae-launch")),
             ("Set AF (dynamic and as launched, on an H100; blind for version 74)",
              ("validate-af", "validate-af-launch")),
             ("Set AG (dynamic and as launched; blind for version 77)", ("validate-ag", "validate-ag-launch")),
             ("Set AH (dynamic and as launched; blind for version 77)", ("validate-ah", "validate-ah-launch")),
             ("Set AI (dynamic and as launched, on an H100; blind for version 77)",
              ("validate-ai", "validate-ai-launch")),
             ("Set AJ (dynamic and as launched, on an H100; blind for version 78)",
              ("validate-aj", "validate-aj-launch")),
             ("Set AK (dynamic and as launched, on an H100; blind for version 79)",
              ("validate-ak", "validate-ak-launch")),
             ("Set AL (dynamic and as launched, on an H100; blind for version 80)",
              ("validate-al", "validate-al-launch")),
             ("Set AM (dynamic and as launched, on an H100; blind for version 81)",
              ("validate-am", "validate-am-launch")),
             ("Set AN (dynamic and as launched, on an H100; blind for version 82)",
              ("validate-an", "validate-an-launch")),
             ("Set AO (dynamic and as launched; blind for version 83)",
              ("validate-ao", "validate-ao-launch")),
             ("Set AP (dynamic and as launched, on an H100; blind for version 84)",
              ("validate-ap", "validate-ap-launch")),
             ("Set AQ (dynamic and as launched, on an H100; blind for version 84)",
              ("validate-aq", "validate-aq-launch")),
             ("Set AR (dynamic and as launched, on an H100; blind for version 85)",
              ("validate-ar", "validate-ar-launch")),
             ("Set AS (dynamic and as launched, on an H100; blind for version 86)",
              ("validate-as", "validate-as-launch")),
             ("Set AT (dynamic and as launched, on an H100; blind for version 86)",
              ("validate-at", "validate-at-launch")),
             ("Set AU (dynamic and as launched, on an H100; blind for version 87)",
              ("validate-au", "validate-au-launch")),
             ("Set AV (dynamic and as launched, on an H100; blind for version 87)",
              ("validate-av", "validate-av-launch")),
             ("Set AW (dynamic and as launched, on an H100; blind for version 87)",
              ("validate-aw", "validate-aw-launch")),
             ("Set AX (dynamic and as launched, on an H100; blind for version 87)",
              ("validate-ax", "validate-ax-launch")),
             ("Set AY (dynamic and as launched, on an H100; blind for version 89)",
              ("validate-ay", "validate-ay-launch")),
             ("Set AZ (dynamic and as launched, on an H100; blind for version 89)",
              ("validate-az", "validate-az-launch")),
             ("Set BA (dynamic and as launched, on an H100; blind for version 89)",
              ("validate-ba", "validate-ba-launch")),
             ("Set BB (dynamic and as launched, on an H100; blind for version 89)",
              ("validate-bb", "validate-bb-launch")),
             ("Set BC (dynamic and as launched, on an H100; blind for version 90)",
              ("validate-bc", "validate-bc-launch")),
             ("Set BD (dynamic and as launched, on an H100; blind for version 90)",
              ("validate-bd", "validate-bd-launch")),
             ("Set BE (dynamic and as launched, on an H100; blind for version 91)",
              ("validate-be", "validate-be-launch")),
             ("Set BF (dynamic and as launched, on an H100; blind for version 91)",
              ("validate-bf", "validate-bf-launch")),
             ("Set BG (dynamic and as launched, on an H100; blind for version 93)",
              ("validate-bg", "validate-bg-launch")),
             ("Set BH (dynamic and as launched, on an H100; blind for version 95)",
              ("validate-bh", "validate-bh-launch")),
             ("Set BI (dynamic and as launched, on an H100; blind for version 96)",
              ("validate-bi", "validate-bi-launch")),
             ("Set BJ (dynamic and as launched, on an H100; blind for version 97)",
              ("validate-bj", "validate-bj-launch")),
             ("Set BK (dynamic and as launched, on an H100; blind for version 98)",
              ("validate-bk", "validate-bk-launch")),
             ("Set BL (dynamic and as launched, on an H100; blind for version 98)",
              ("validate-bl", "validate-bl-launch")),
             ("Set BM (dynamic and as launched, on an H100; blind for version 101)",
              ("validate-bm", "validate-bm-launch")),
             ("Set BN (dynamic and as launched, on an H100; blind for version 101)",
              ("validate-bn", "validate-bn-launch")),
             ("Set BO (dynamic and as launched, on an H100; blind for version 101)",
              ("validate-bo", "validate-bo-launch")))


def measured_times(paths: Sequence[str]) -> Dict[str, dict]:
    """Times by case; the first file that has a case wins (the first measurement of A-D). Each
    carries `gpu`, the model's name of the GPU its file was timed on (`timed_on`)."""
    out: Dict[str, dict] = {}
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        gpu = timed_on(run)
        for name, m in run["cases"].items():
            if "us" in m and name not in out:
                out[name] = dict(m, gpu=gpu)
    return out


def timed_on(run: dict) -> str:
    """The GPU a run's file was timed on, as the model names it: the device it records (an H100 where
    the device tool lent one), else the H200 every earlier run used."""
    device = (run.get("device") or {}).get("name", "")
    return "h100" if "H100" in device else "h200"


def cubin_of(folders: Sequence[str], name: str) -> Optional[bytes]:
    for d in folders:
        p = os.path.join(d, name + ".cubin")
        if os.path.exists(p):
            with open(p, "rb") as f:
                return f.read()
    return None


def _mark(ratio: float) -> str:
    return "" if abs(ratio - 1) <= 0.3 else (" ✗✗" if ratio > 2 or ratio < 0.5 else " ✗")


def score_line(ratios: List[float]) -> str:
    within = sum(abs(x - 1) <= 0.3 for x in ratios)
    beyond = sum(x > 2 or x < 0.5 for x in ratios)
    geo = math.exp(sum(abs(math.log(x)) for x in ratios) / len(ratios))
    return f"{within} of {len(ratios)} within ±30%, {beyond} beyond 2×, geometric mean error {geo:.2f}×"


def case_costs(case, kernel_of, cubin: Optional[bytes], gpu: str = "h200"):
    """The case's cost reports on `gpu`: from the IR alone, and with `cubin`'s schedule (the IR
    report again where there is no cubin)."""
    import tilescope
    kernel, spec = kernel_of(case), case.args_for(concrete=True)
    values = case.values_for(kernel)
    ir = tilescope.cost(kernel, spec, case.grid, gpu, aligned=case.aligned, values=values)
    if not cubin:
        return ir, ir
    return ir, tilescope.cost(kernel, spec, case.grid, gpu, aligned=case.aligned, cubin=cubin, values=values)


# groups whose cases are versions of one operator at one case (set AB): the report says whether the
# predicted order of the versions is the measured one, per operator (the cases' name prefix)
SETAB_OPERATORS = ("AB_conv1d_", "AB_flash_decode_")
VERSION_GROUPS = {"validate-ab": SETAB_OPERATORS, "validate-ab-launch": SETAB_OPERATORS}


def order_line(times: Dict[str, Tuple[float, float, float]]) -> str:
    """How well predicted times order the versions `times` holds (name: cubin prediction, IR
    prediction, measured): the pairs ordered as measured, and which version each calls fastest."""
    names = sorted(times)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    parts = []
    for k, label in ((0, "with the cubin"), (1, "IR only")):
        agree = sum((times[a][k] < times[b][k]) == (times[a][2] < times[b][2]) for a, b in pairs)
        fastest = min(names, key=lambda n: times[n][k])
        parts.append(f"{label} {agree} of {len(pairs)} pairs in the measured order, fastest {fastest}")
    measured_fastest = min(names, key=lambda n: times[n][2])
    return f"{'; '.join(parts)} (measured fastest {measured_fastest})"


def render(paths: Sequence[str], cases, kernel_of, cubins: Sequence[str] = ()) -> str:
    """Tables per group: the prediction with the cubin's schedule (where `cubins` folders hold
    the case's cubin) and from the IR alone, against the measured time."""
    measured = measured_times(paths)
    by_name = {c.name: c for c in cases}
    out: List[str] = []
    totals = {"cubin": [], "ir": []}
    by_group: Dict[str, tuple] = {}
    for group, title in GROUPS:
        rows, with_cubin, ir_only, shown_memory, named_memory = [], [], [], 0, 0
        versions: Dict[str, Tuple[float, float, float]] = {}
        for name, m in measured.items():
            c = by_name.get(name)
            if c is None or c.group != group:
                continue
            ir, r = case_costs(c, kernel_of, cubin_of(cubins, name), m["gpu"])
            p = r.prediction
            ratio, ratio_ir = r.predicted_us / m["us"], ir.predicted_us / m["us"]
            with_cubin.append(ratio)
            ir_only.append(ratio_ir)
            versions[name] = (r.predicted_us, ir.predicted_us, m["us"])
            moved = p.bytes["dram_read"] + p.bytes["dram_write"]
            bw = moved / (m["us"] * 1e-6)
            memory_shown = bw >= 0.85 * r.prediction.gpu.dram_tbs * 1e12 * COPY_EFFICIENCY
            shown_memory += memory_shown
            named_memory += memory_shown and r.bound == "memory"
            sched = f"{p.cubin.threads}/{p.cubin.registers}" + (f"/{p.cubin.local_bytes} B" if p.cubin.local_bytes
                                                                 else "") if p.cubin else "—"
            rows.append(f"| {name} | {'×'.join(map(str, c.grid))} | {sched} | {p.blocks_per_sm} | "
                        f"{r.predicted_us:,.1f} | {ir.predicted_us:,.1f} | {m['us']:,.1f} | {ratio:.2f}{_mark(ratio)} | "
                        f"{ratio_ir:.2f}{_mark(ratio_ir)} | {r.bound} | {bw / 1e9:,.0f} GB/s |")
        if not rows:
            continue
        if group in GOAL_GROUPS:
            totals["cubin"] += with_cubin
            totals["ir"] += ir_only
        by_group[group] = (with_cubin, ir_only)
        out += [f"**{title}** — with the cubin: {score_line(with_cubin)}; IR only: {score_line(ir_only)}; bound named "
                f"\"memory\" for {named_memory} of the {shown_memory} kernels whose measured DRAM traffic reached 85% "
                f"of the achievable bandwidth.", "",
                "| kernel | grid | threads/registers/spill | blocks per SM | predicted µs (cubin) | predicted µs (IR) "
                "| measured µs | ratio (cubin) | ratio (IR) | bound | DRAM rate measured |",
                "|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|", *rows, ""]
        for prefix in VERSION_GROUPS.get(group, ()):
            same_op = {n: t for n, t in versions.items() if n.startswith(prefix)}
            if len(same_op) > 1:
                out += [f"Versions {prefix}*: {order_line(same_op)}.", ""]
    if totals["cubin"]:
        lines = [f"All {len(totals['cubin'])} validation launches, version {MODEL_VERSION} — with the cubin: "
                 f"{score_line(totals['cubin'])}; IR only: {score_line(totals['ir'])}."]
        for label, groups in SUBTOTALS:
            cub = [x for g in groups for x in by_group.get(g, ([], []))[0]]
            ir = [x for g in groups for x in by_group.get(g, ([], []))[1]]
            if cub:
                lines.append(f"- {label}: with the cubin {score_line(cub)}; IR only {score_line(ir)}.")
        out[:0] = lines + [""]
    return "\n".join(out)


def predict_folder(folder: str, json_out: str, stored, kernel_of, gpu: str = "h200") -> None:
    """Predictions on `gpu` for the prepared cases `stored` (read from the folder's cases.json), from
    the IR alone and with each cubin's schedule (committed before the cases are timed)."""
    out = {}
    for c in stored:
        with open(os.path.join(folder, c.name + ".cubin"), "rb") as f:
            ir, cb = case_costs(c, kernel_of, f.read(), gpu)
        out[c.name] = {"ir_only": {"predicted_us": round(ir.predicted_us, 3), "bound": ir.bound},
                       "cubin": {"predicted_us": round(cb.predicted_us, 3), "bound": cb.bound},
                       "schedule": cb.prediction.cubin.to_json()}
        print(f"{c.name:34s} IR {ir.predicted_us:10.1f} {ir.bound:14s} cubin {cb.predicted_us:10.1f} {cb.bound}",
              flush=True)
    with open(json_out, "w") as f:
        json.dump(out, f, indent=1)
