"""Binary layout of each TileIR op we emit, as a small declarative table.

Each entry: opcode, result form, flag bits, attributes, operand groups, region count.
- results: an int N (N type ids follow) or "sized" (a count, then the type ids).
- flags: names in bit order; a plain name is a bool attribute, "?name" marks an optional
  attribute or operand as present. "@13.x" on the entry's flags: the flags word exists
  only from that version on.
- attrs: "name:kind" in order; kind is an enum table name, int, bool, str, type, array,
  dense, i32s, bools, hints or pred; "?" after the name: optional (present per its flag);
  "@13.x": only from that version on.
- operands: "name" one value, "?name" optional, "*name" counted list, "+name" trailing list;
  a leading "#" writes the total operand count first (ops whose only list is trailing).
"""
from __future__ import annotations

ENUMS = {
    "rounding": ["nearest_even", "zero", "negative_inf", "positive_inf", "approx", "full",
                 "nearest_int_to_zero", "nearest_away"],
    "overflow": ["none", "nsw", "nuw", "nw"],
    "sign": ["unsigned", "signed"],
    "cmp": ["equal", "not_equal", "less_than", "less_than_or_equal", "greater_than", "greater_than_or_equal"],
    "ordering": ["unordered", "ordered"],
    "memord": ["weak", "relaxed", "acquire", "release", "acq_rel"],
    "scope": ["tl_blk", "device", "sys"],
    "rmw": ["and", "or", "xor", "add", "addf", "max", "min", "umax", "umin", "xchg"],
}

def _spec(code, results=1, flags="", attrs="", operands="source", regions=0):
    return (code, results, flags, attrs, operands, regions)


FP2 = dict(flags="flush_to_zero", attrs="rounding_mode:rounding", operands="lhs rhs")
I2 = dict(operands="lhs rhs")

OPS = {
    "absf": _spec(0), "absi": _spec(1),
    "addf": _spec(2, **FP2), "addi": _spec(3, attrs="overflow:overflow", operands="lhs rhs"),
    "andi": _spec(4, **I2), "assert": _spec(5, 0, attrs="message:str", operands="condition"),
    "assume": _spec(6, attrs="predicate:pred", operands="value"), "atan2": _spec(110, **I2),
    "atomic_cas_tko": _spec(7, 2, "?mask ?token", "memory_ordering_semantics:memord memory_scope:scope",
                            "pointers cmp val ?mask ?token"),
    "atomic_rmw_tko": _spec(8, 2, "?mask ?token",
                            "memory_ordering_semantics:memord memory_scope:scope mode:rmw",
                            "pointers arg ?mask ?token"),
    "atomic_red_view_tko": _spec(117, "sized", "?token",
                                 "memory_ordering_semantics:memord memory_scope:scope mode:rmw inbounds:bools@13.5",
                                 "view *index value ?token"),
    "bitcast": _spec(9), "break": _spec(10, "sized", operands="#+operands"), "broadcast": _spec(11),
    "cat": _spec(12, attrs="dim:int", operands="lhs rhs"), "ceil": _spec(13),
    "cmpf": _spec(14, attrs="comparison_predicate:cmp comparison_ordering:ordering", operands="lhs rhs"),
    "cmpi": _spec(15, attrs="comparison_predicate:cmp signedness:sign", operands="lhs rhs"),
    "constant": _spec(16, attrs="value:dense", operands=""),
    "continue": _spec(17, "sized", operands="#+operands"), "cos": _spec(18), "cosh": _spec(19),
    "divf": _spec(20, **FP2), "divi": _spec(21, attrs="signedness:sign rounding:rounding", operands="lhs rhs"),
    "exp": _spec(23, attrs="rounding_mode:rounding@13.3"), "exp2": _spec(24, flags="flush_to_zero"),
    "exti": _spec(37, attrs="signedness:sign", operands="from"),
    "extract": _spec(38, "sized", operands="#source +indices"), "floor": _spec(39),
    "fma": _spec(40, flags="flush_to_zero", attrs="rounding_mode:rounding", operands="lhs rhs acc"),
    "for": _spec(41, "sized", "unsignedCmp@13.2", "", "#lowerBound upperBound step +initValues", 1),
    "ftof": _spec(42, attrs="rounding_mode:rounding", operands="from"),
    "ftoi": _spec(43, flags="saturating@13.4", attrs="signedness:sign rounding_mode:rounding", operands="from"),
    "get_index_space_shape": _spec(45, "sized", operands="src"),
    "get_num_tile_blocks": _spec(46, 3, operands=""), "get_tile_block_id": _spec(48, 3, operands=""),
    "if": _spec(50, "sized", operands="condition", regions=2),
    "int_to_ptr": _spec(51), "iota": _spec(58, operands=""),
    "itof": _spec(59, attrs="signedness:sign rounding_mode:rounding", operands="from"),
    "join_tokens": _spec(60, "sized", operands="#+tokens"),
    "load_ptr_tko": _spec(61, 2, "?memory_scope ?optimization_hints ?mask ?paddingValue ?token",
                          "memory_ordering_semantics:memord memory_scope?:scope optimization_hints?:hints",
                          "source ?mask ?paddingValue ?token"),
    "load_view_tko": _spec(62, "sized", "?memory_scope ?optimization_hints ?token",
                           "memory_ordering_semantics:memord memory_scope?:scope optimization_hints?:hints "
                           "inbounds:bools@13.4", "view *index ?token"),
    "log": _spec(63), "log2": _spec(64),
    "loop": _spec(65, "sized", operands="#+initValues", regions=1),
    "make_partition_view": _spec(66, operands="tensor_view"),
    "make_tensor_view": _spec(67, "sized", operands="base *dynamicShape *dynamicStrides"),
    "make_token": _spec(68, operands=""),
    "maxf": _spec(69, flags="propagate_nan flush_to_zero", operands="lhs rhs"),
    "maxi": _spec(70, attrs="signedness:sign", operands="lhs rhs"),
    "minf": _spec(71, flags="propagate_nan flush_to_zero", operands="lhs rhs"),
    "mini": _spec(72, attrs="signedness:sign", operands="lhs rhs"),
    "mmaf": _spec(73, flags="fast_acc@13.3", operands="lhs rhs acc"),
    "mmaf_scaled": _spec(114, operands="lhs rhs acc lhs_scale rhs_scale"),
    "mmai": _spec(74, attrs="signedness_lhs:sign signedness_rhs:sign", operands="lhs rhs acc"),
    "mulf": _spec(76, **FP2), "mulhii": _spec(77, **I2),
    "muli": _spec(78, attrs="overflow:overflow", operands="lhs rhs"),
    "negf": _spec(79), "negi": _spec(80, attrs="overflow:overflow@13.2"),
    "offset": _spec(81, operands="ptr offset"), "ori": _spec(82, **I2), "pack": _spec(111),
    "permute": _spec(83, attrs="permutation:i32s"), "fpowf": _spec(84, **I2),
    "print_tko": _spec(85, "sized", "?token@13.2", "str:str", "*args ?token"),
    "ptr_to_int": _spec(86), "ptr_to_ptr": _spec(87),
    "reduce": _spec(88, "sized", attrs="dim:int identities:array", operands="#+operands", regions=1),
    "remf": _spec(89, **I2), "remi": _spec(90, attrs="signedness:sign", operands="lhs rhs"),
    "reshape": _spec(91), "return": _spec(92, "sized", operands="#+operands"),
    "rsqrt": _spec(93, flags="flush_to_zero"),
    "scan": _spec(94, "sized", attrs="dim:int reverse:bool identities:array", operands="#+operands", regions=1),
    "select": _spec(95, operands="cond val_if_true val_if_false"),
    "shli": _spec(96, attrs="overflow:overflow", operands="lhs rhs"),
    "shri": _spec(97, attrs="signedness:sign", operands="lhs rhs"),
    "sin": _spec(98), "sinh": _spec(99),
    "sqrt": _spec(100, flags="flush_to_zero", attrs="rounding_mode:rounding"),
    "store_ptr_tko": _spec(101, 1, "?memory_scope ?optimization_hints ?mask ?token",
                           "memory_ordering_semantics:memord memory_scope?:scope optimization_hints?:hints",
                           "destination value ?mask ?token"),
    "store_view_tko": _spec(102, "sized", "?memory_scope ?optimization_hints ?token",
                            "memory_ordering_semantics:memord memory_scope?:scope optimization_hints?:hints "
                            "inbounds:bools@13.4", "tile view *index ?token"),
    "subf": _spec(103, **FP2), "subi": _spec(104, attrs="overflow:overflow", operands="lhs rhs"),
    "tan": _spec(105), "tanh": _spec(106, attrs="rounding_mode:rounding@13.2"),
    "trunci": _spec(107, attrs="overflow:overflow", operands="from"), "unpack": _spec(112),
    "xori": _spec(108, **I2), "yield": _spec(109, "sized", operands="#+operands"),
    "make_gather_scatter_view": _spec(115, operands="tensor_view"),
    "make_strided_view": _spec(116, operands="tensor_view"),
    "insert": _spec(118, "sized", operands="#source destination +indices"),
    "gdc_launch_dependents_tko": _spec(119, operands="#?token"),
    "gdc_wait_tko": _spec(120, operands="#?token"),
    "fpowi": _spec(121, operands="source exponent"),
}
# ops that exist only from a bytecode version on
SINCE = {"atan2": (13, 2), "pack": (13, 3), "unpack": (13, 3), "mmaf_scaled": (13, 3), "atomic_red_view_tko": (13, 3),
         "make_gather_scatter_view": (13, 3), "make_strided_view": (13, 3), "insert": (13, 4),
         "gdc_launch_dependents_tko": (13, 4), "gdc_wait_tko": (13, 4), "fpowi": (13, 4)}
BY_CODE = {spec[0]: name for name, spec in OPS.items()}

def version_of(text: str):
    """Split 'name@13.3' into ('name', (13, 3)) (version None when absent)."""
    if "@" in text:
        name, v = text.split("@")
        major, minor = v.split(".")
        return name, (int(major), int(minor))
    return text, None
