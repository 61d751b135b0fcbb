# mypy: disable-error-code="no-untyped-call"
"""A 128-bit unsigned integer for numba: the bitboard of Connect-X boards up to 128 bits.

numba knows no integer wider than 64 bits, but LLVM does: :data:`U128` is numba's integer type of 128 bits
(``types.Integer("uint128")``), kept in LLVM as one ``i128`` -- on x86-64 two registers, each operation one
or two instructions.  Importing this module teaches numba's typing the operations the bit tricks use, on
two ``U128`` operands: ``& | ^ + - *`` (and their in-place forms), ``~``, the comparisons, truth, and
shifts by a 64-bit count.  numba's own lowering of integers (``numba.cpython.numbers``) already works at
any width; only the unsigned comparisons are registered type by type, so they are registered here too.
Nothing mixes a ``U128`` with a 64-bit operand implicitly: a kernel that should work on both widths takes
its constants from its argument's type (:func:`like`), so the same source compiles to the same machine code
as before for ``uint64`` bitboards and to ``i128`` code for wide ones.

NumPy has no 128-bit integer, so a wide bitboard crosses into compiled code, and lies in arrays, as two
``uint64`` words, low word first: :func:`u128` joins them, :func:`low_word` and :func:`high_word` take
them apart, :func:`as_board` reads either a ``uint64`` or a pair of words, :func:`split` splits a Python
int.  :func:`ctpop` and :func:`ctlz` are LLVM's bit counts at the width of their argument.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core.datamodel import models, register_default  # type: ignore[attr-defined]
from numba.core.imputils import lower_builtin
from numba.core.typing.templates import ConcreteTemplate, infer_global, signature
from numba.cpython import numbers as _numbers
from numba.extending import NativeValue, box, intrinsic, overload, unbox

__all__ = ["U128", "UInt128", "u128", "low_word", "high_word", "like", "as_board", "split", "ctpop", "ctlz", "width"]



class UInt128(types.Integer):
    """numba's unsigned 128-bit integer type: an integer to numba's lowering, with its own boxing (a Python
    int, through two words) where the 64-bit integers' would truncate."""

    def __init__(self) -> None:
        super().__init__("uint128", bitwidth=128, signed=False)


#: numba's unsigned 128-bit integer type
U128 = UInt128()

def _cases(op, cases):  # type: ignore[no-untyped-def]
    """Register ``cases`` for ``op``, tried before the generic templates (the NumPy ufunc operators'
    would fail on a type NumPy does not know)."""
    infer_global(op)(type(f"U128_{op.__name__}", (ConcreteTemplate,), {"cases": cases, "metadata": {"target": "cpu"}}))


def _register():  # type: ignore[no-untyped-def]
    """Teach numba's typing the operations on two ``U128`` (and shifts by a 64-bit count)."""
    register_default(UInt128)(models.IntegerModel)
    boolean = types.boolean
    for op in (operator.and_, operator.or_, operator.xor, operator.add, operator.sub, operator.mul,
               operator.iand, operator.ior, operator.ixor, operator.iadd, operator.isub, operator.imul):
        _cases(op, [signature(U128, U128, U128)])
    for op in (operator.lshift, operator.rshift, operator.ilshift, operator.irshift):
        _cases(op, [signature(U128, U128, types.uint64), signature(U128, U128, types.int64)])
    for op in (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge):
        _cases(op, [signature(boolean, U128, U128)])
    _cases(operator.invert, [signature(U128, U128)])
    lower_builtin(operator.lt, U128, U128)(_numbers.int_ult_impl)
    lower_builtin(operator.le, U128, U128)(_numbers.int_ule_impl)
    lower_builtin(operator.gt, U128, U128)(_numbers.int_ugt_impl)
    lower_builtin(operator.ge, U128, U128)(_numbers.int_uge_impl)


_register()

_I64 = ir.IntType(64)
_I128 = ir.IntType(128)


@box(UInt128)
def _box(typ, val, c):  # type: ignore[no-untyped-def]
    """A Python int from a ``U128`` (what a compiled function called from Python returns)."""
    sixty_four = c.pyapi.long_from_longlong(ir.Constant(_I64, 64))
    high = c.pyapi.long_from_ulonglong(c.builder.trunc(c.builder.lshr(val, ir.Constant(_I128, 64)), _I64))
    low = c.pyapi.long_from_ulonglong(c.builder.trunc(val, _I64))
    shifted = c.pyapi.number_lshift(high, sixty_four)
    out = c.pyapi.number_or(shifted, low)
    for obj in (sixty_four, high, low, shifted):
        c.pyapi.decref(obj)
    return out


@unbox(UInt128)
def _unbox(typ, obj, c):  # type: ignore[no-untyped-def]
    """A ``U128`` from a Python int below ``2**128``."""
    sixty_four = c.pyapi.long_from_longlong(ir.Constant(_I64, 64))
    ones = c.pyapi.long_from_ulonglong(ir.Constant(_I64, 0xFFFFFFFFFFFFFFFF))
    low = c.pyapi.number_and(obj, ones)
    high = c.pyapi.number_rshift(obj, sixty_four)
    lo = c.pyapi.long_as_ulonglong(low)
    hi = c.pyapi.long_as_ulonglong(high)
    for o in (sixty_four, ones, low, high):
        c.pyapi.decref(o)
    val = c.builder.or_(c.builder.zext(lo, _I128), c.builder.shl(c.builder.zext(hi, _I128), ir.Constant(_I128, 64)))
    return NativeValue(val, is_error=c.pyapi.c_api_error())


@intrinsic
def _u128(typingctx, lo, hi):  # type: ignore[no-untyped-def]
    """The 128-bit integer ``hi * 2**64 + lo`` of two ``uint64`` words."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        lo_, hi_ = (context.cast(builder, a, t, types.uint64) for a, t in zip(args, signature.args))
        return builder.or_(builder.zext(lo_, _I128), builder.shl(builder.zext(hi_, _I128), ir.Constant(_I128, 64)))

    return U128(types.unliteral(lo), types.unliteral(hi)), codegen


@intrinsic
def _low_word(typingctx, x):  # type: ignore[no-untyped-def]
    """The low 64 bits of an integer as a ``uint64`` (a ``uint64`` unchanged)."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return context.cast(builder, args[0], signature.args[0], types.uint64)

    return types.uint64(types.unliteral(x)), codegen


@intrinsic
def _high_word(typingctx, x):  # type: ignore[no-untyped-def]
    """Bits 64..127 of a :data:`U128` as a ``uint64``."""
    if x != U128:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.trunc(builder.lshr(args[0], ir.Constant(_I128, 64)), _I64)

    return types.uint64(U128), codegen


@intrinsic
def _like(typingctx, x, v):  # type: ignore[no-untyped-def]
    """``v`` (any integer) as an integer of ``x``'s type: the constants of a kernel that works at both widths
    (``like(s, 1)`` is ``np.uint64(1)`` for a ``uint64`` ``s``)."""
    to = types.unliteral(x)
    if not isinstance(to, types.Integer) or not isinstance(types.unliteral(v), types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return context.cast(builder, args[1], signature.args[1], to)

    return to(to, types.unliteral(v)), codegen


@intrinsic
def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's population count of an unsigned integer of any width, as a ``uint64``."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        r = builder.ctpop(args[0])
        return r if r.type.width == 64 else context.cast(builder, r, signature.args[0], types.uint64)

    return types.uint64(types.unliteral(x)), codegen


@intrinsic
def _ctlz(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's count of leading zero bits at the width of ``x`` (the width for 0), as a ``uint64``."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        r = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
        return r if r.type.width == 64 else context.cast(builder, r, signature.args[0], types.uint64)

    return types.uint64(types.unliteral(x)), codegen


def width(x: Any) -> int:
    """The bit width of ``x``'s integer type (64 or 128), a constant in compiled code."""
    raise NotImplementedError("width is for compiled code")  # pragma: no cover


@overload(width, inline="always")
def _width(x):  # type: ignore[no-untyped-def]
    bits = types.unliteral(x).bitwidth

    def impl(x):  # type: ignore[no-untyped-def]
        return bits

    return impl


def as_board(v: Any) -> Any:
    """A bitboard handed to compiled code: a ``uint64`` as it is, a pair of words (a tuple or a row of an
    array, low word first) as a :data:`U128`."""
    raise NotImplementedError("as_board is for compiled code")  # pragma: no cover


@overload(as_board, inline="always")
def _as_board(v):  # type: ignore[no-untyped-def]
    if isinstance(v, types.Integer):
        return lambda v: v
    if isinstance(v, (types.UniTuple, types.Array)):
        return lambda v: u128(v[0], v[1])
    return None


def split(x: int) -> tuple[np.uint64, np.uint64]:
    """A Python int below ``2**128`` as its two ``uint64`` words, low word first."""
    return np.uint64(x & 0xFFFFFFFFFFFFFFFF), np.uint64(x >> 64)


# the intrinsics under their public names, typed for Python readers (mypy sees numba's wrapper otherwise)
u128: Any = _u128
low_word: Any = _low_word
high_word: Any = _high_word
like: Any = _like
ctpop: Any = _ctpop
ctlz: Any = _ctlz
