"""Memory that survives SROA (arrays at computed indices, address-taken locals and structs,
pointers to them, memset/memcpy) as state of the transition system.

Why a module of its own: SROA turns every scalar and every aggregate accessed at constant
indices into SSA values, which the step encoders handle; what is left is real memory, and it
needs a model of its own — objects, pointers, a points-to analysis, the validity of each
access — that both step encoders could share without knowing each other.

The model (docs/memory.md):

- **Objects.** Every alloca of `main` (locals of inlined callees included; a global that only
  main uses has become one, with its initial value stored at entry) and every global whose
  address main uses is one object of constant size. Its contents are state variables, one per
  *cell* of `cell` bytes: the largest power of two that divides the size of every access that
  may touch it (element-wise for `int a[10]` read and written as ints, bytes for a struct with a
  `char` field). A global's cells start from its initializer (zero by default); a local's are
  unconstrained and the front end stores a fresh nondet value over the whole object where C
  says its lifetime starts. Objects of more than `EXACT_CELLS` cells, and objects of
  nondeterministic size, are *abstract*: exact bounds, contents through one tracked cell at a
  nondeterministic index (cell morphing; `restrict_error` says why that is sound), any value
  elsewhere.
- **Pointers** are `POINTER_WIDTH`-bit words: an 8-bit object id (0 = NULL, 255 = invalid)
  above a 64-bit signed byte offset. A GEP adds to the offset with overflow detection (an
  overflowing GEP yields the invalid object). In memory a pointer takes the target's pointer
  size: the object id in the top byte, the offset in the rest; an offset that does not fit is
  stored as the invalid object.
- **Points-to.** A flow-insensitive analysis gives each pointer value the objects it may point
  to; a load multiplexes, a store writes, only over those. Soundness does not rest on it: an
  access is valid only if the pointer's object is one of them and the access lies inside the
  object at a cell boundary, and every other access is a memory fault.
- **Faults.** A fault (NULL, invalid or dangling object id, out of bounds, misaligned) ends
  the step in `error`, like a failed check, and is recorded with its C line
  (`MemoryFault`): under unreach-call a counterexample that ends in one is answered UNKNOWN
  with the line (the program has undefined behaviour), never FALSE.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field

from llumc.frontend.cfg import (FLOAT_WIDTHS, POINTER_WIDTH, Const, Function, GlobalAddr, Instr, Literal, Ref, Undef,
                                float_constant, split_top, split_type)
from llumc.errors import UnsupportedError
from llumc.frontend.compile import MAX_UNINIT_BITS
from llumc.frontend.procedures import BOUND_PREFIX, function_of_tag
from llumc.frontend.lifetimes import LIFETIME_FUNCTIONS, LIFETIME_START
from llumc.frontend.mainargs import ARGV_FUNCTION, MAX_ARGUMENT_BYTES, MODELLED_ARGUMENTS, MODELLED_BYTES
from llumc.encoding.liveness import PointerLiveness, successors
from llumc.encoding.terms import Term, TermBuilder, postorder

OBJECT_BITS = 8
OFFSET_BITS = POINTER_WIDTH - OBJECT_BITS
NULL_OBJECT = 0
INVALID_OBJECT = (1 << OBJECT_BITS) - 1
MAX_OBJECTS = INVALID_OBJECT - 1
# Objects of more cells than this are rejected (docs/memory.md: measured sizes; an int array of
# 1024 elements costs about 600k clauses of T, 4096 elements 2.4M and half a minute to encode).
# LLUMC_EXACT_CELLS overrides it.
EXACT_CELLS = int(os.environ.get("LLUMC_EXACT_CELLS", "1024"))
MEMORY_INTRINSICS = ("llvm.memset.", "llvm.memcpy.", "llvm.memmove.")
HEAP_FUNCTIONS = ("malloc", "calloc", "free")
MEMORY_OPCODES = ("alloca", "load", "store", "getelementptr")
# An allocation site in a loop is a pool of this many objects at first (docs/memory.md,
# "Allocation sites in loops"); llumc.check doubles it while the bound is reached, up to
# MAX_HEAP_POOL (with the other objects within the 254 object ids).
DEFAULT_HEAP_POOL = 4
MAX_HEAP_POOL = 64
# `heap_pool` of this value: each allocation site in a loop is one summary object of all its
# runs' blocks instead of a pool (docs/memory.md, "Allocation sites in loops: summaries")
SITE_SUMMARY = 0
# a summary numbers at most this many nodes; the runs beyond share its far nodes
# (docs/memory.md, "Allocation sites in loops: summaries")
MAX_SUMMARY_NODES = 1 << 24
# ... and larger pools only while their exact cells stay within this (each costs about 600
# clauses, docs/memory.md: 4096 of them about 2.4 M)
MAX_POOL_CELLS = 4096

__all__ = ["MemoryEncoder", "MemoryFault", "MemoryObject", "HeapPool", "uses_memory", "EXACT_CELLS", "can_be_exact",
           "pointer_text", "stored_pointer_text", "DEFAULT_HEAP_POOL", "MAX_HEAP_POOL",
           "SITE_SUMMARY"]


def uses_memory(fn: Function) -> bool:
    # plain loops, the common tests first: a generator of generators took 0.3 s over the
    # 311 000 instructions of RERS programs (which use no memory)
    memory_opcodes = frozenset(MEMORY_OPCODES)
    for block in fn.blocks:
        for ins in block.instrs:
            opcode = ins.opcode
            if opcode in memory_opcodes or opcode == "call" and (_is_memory_call(ins) or _is_heap_call(ins)
                                                                 or _is_lifetime_call(ins) or _is_argv_call(ins)):
                return True
            for operand in ins.operands:
                if operand.__class__ is GlobalAddr:  # (no subclasses)
                    return True
    return False


def can_be_exact(obj: MemoryObject) -> bool:
    """Whether a large object may get one state variable per cell (a refinement asks for it):
    it has a constant size, and its contents at the start of its lifetime are what its exact
    encoding says — a global's initializer, a heap object's any value (its call site runs at
    most once), or a local's fresh value, which the front end stores only over locals of at
    most MAX_UNINIT_BITS (a larger local declared in a loop would keep the previous
    iteration's contents, fewer values than C allows)."""
    if obj.size_operands or obj.argument or obj.function or obj.size == 0 or obj.summary:
        return False
    return obj.static or obj.heap is not None or 8 * obj.size <= MAX_UNINIT_BITS


def _is_heap_call(ins: Instr) -> bool:
    return ins.opcode == "call" and ins.callee in HEAP_FUNCTIONS


def _is_argv_call(ins: Instr) -> bool:
    return ins.opcode == "call" and ins.callee == ARGV_FUNCTION


def _is_lifetime_call(ins: Instr) -> bool:
    return ins.opcode == "call" and ins.callee in LIFETIME_FUNCTIONS


def _is_memory_call(ins: Instr) -> bool:
    return ins.opcode == "call" and (ins.callee or "").startswith(MEMORY_INTRINSICS)


@dataclass
class MemoryObject:
    id: int
    ir_name: str  # "%a.global", "@table"
    c_name: str
    type_text: str
    size: int  # bytes
    static: bool  # a global that stayed a global (initial contents from its initializer)
    where: str = ""  # file:line of its declaration or first use
    pointer_cells: bool = False  # every access stores or loads a whole pointer (`int *t[4]`)
    # the cells that only ever hold whole pointers (`MemoryEncoder._pointer_cells`: all of
    # `int *t[4]`, a list node's `next`), shown as pointers in traces
    pointer_cell_vars: list = field(default_factory=list)
    # more cells than the exact bound: no contents at all (a read is a fresh nondet value, a
    # write is only checked for validity); its size, hence every validity check, stays exact
    abstract: bool = False
    # nondeterministic size (a VLA, `malloc(n * 4)`, at a site outside loops): always abstract,
    # its size in bytes is the state variable `size_var`, set where the object is allocated
    size_operands: list = field(default_factory=list)
    element: int = 1  # bytes per unit of the size operands
    size_var: object = None
    heap: str | None = None  # "malloc" | "calloc": a heap object (one per call site, or one of a pool's)
    site_key: int | None = None  # heap: the key of its call instruction
    pool_index: int | None = None  # one of a site's pool (`HeapPool`): returned by the site's run pool_index + 1
    pool_runs: object = None  # one of a pool's: its site's counter (`HeapPool.counter`)
    # heap: StateVar, 1 while the object is allocated; a local whose lifetime is followed
    # (llumc.frontend.lifetimes: a pointer may outlive its scope): 1 while it is alive
    allocated: object = None
    followed: bool = False  # a local with lifetime markers (`allocated` is its "alive" bit)
    # a followed local whose lifetime starts in a loop: its instances are one object here, so a
    # pointer kept from one iteration into the next would read the new instance (no TRUE)
    reborn: bool = False
    # an alloca on a cycle (a VLA, `__builtin_alloca`): one object for every run's block
    # (`_reborn_vlas`), allocated anew at each run
    in_loop: bool = False
    initial: bytes | None = None  # static contents; None: unconstrained (automatic storage)
    cell: int = 1  # bytes per cell
    cells: list = field(default_factory=list)  # StateVar per cell
    # the tracked cell of an abstract object (docs/memory.md, cell morphing): `tracked_index`
    # (StateVar: the index of one cell, nondeterministic in the initial state, never changed)
    # and `tracked_value` (StateVar: that cell's contents, exact); None where not tracked
    tracked_index: object = None
    tracked_value: object = None
    # an array of structs of a few cells each is tracked per element (`tracked_stride`, its
    # bytes): `tracked_fields` are (byte offset in the element, StateVar) of every cell of
    # element `tracked_index`, the first of them `tracked_value`; otherwise the stride is the
    # cell and the one field is `tracked_value` (`MemoryEncoder._tracked_element`)
    tracked_stride: int = 0
    tracked_fields: list = field(default_factory=list)
    # a second tracked cell (`pair_index`, `pair_value`: "a[#2]") of an object two cells of
    # which one comparison reads (`a[j] > a[j + 1]`; `MemoryEncoder._compared_loads`):
    # a fact may then relate two cells of it (sortedness: `#1 < #2 ==> a[#1] <= a[#2]`), and an
    # error edge that compares two of its cells is restricted to both being tracked
    pair_index: object = None
    pair_value: object = None
    # the summary of an allocation site in a loop (`MemoryEncoder._summarise`): node n (the
    # block of the site's run n + 1) lies at byte offset n * node_stride (a power of two at
    # least `size`, the block's bytes); a node is valid while n < the site's runs (`pool_runs`;
    # the tracked node until it is freed, `node_freed`); its tracked element is one node (`tracked_stride`), and
    # `node_pointers` are the byte offsets in a node of the cells that hold pointers
    # Nodes 0 .. far_node - 1 are runs 1 .. far_node; every later run gets the far node
    # `far_node` (never the tracked one: many blocks share it), except one run, where the
    # tracked index is far_node + 1, which gets node far_node + 1 (`_summary_call`)
    summary: bool = False
    node_stride: int = 0
    max_nodes: int = 0
    far_node: int = 0
    node_pointers: tuple = ()
    # a summary whose nodes a `free` may take: `node_freed` (StateVar, 1 bit, 0 at the start)
    # says whether the tracked node has been freed; a free or an access of the tracked node
    # after it faults (the first such fault of a run is the model's with that node tracked)
    frees_nodes: bool = False
    node_freed: object = None

    def tracked_cells(self) -> list[tuple[object, int, object]]:
        """(index StateVar, byte offset in the element, value StateVar) of every tracked cell:
        the fields of element `tracked_index`, then the second cell."""
        cells = [(self.tracked_index, offset, var) for offset, var in self.tracked_fields]
        if self.pair_value is not None:
            cells.append((self.pair_index, 0, self.pair_value))
        return cells
    # an abstract object: one condition per read of it (on a step's state and inputs) under which
    # the read returned a havoc value rather than the tracked cell; a trace that makes one true
    # used a value the memory may not hold (llumc.check.refinement)
    havoc_reads: list = field(default_factory=list)
    # an abstract object with a tracked cell: its cell-sized reads (`ContentRead`); where no
    # memory update of their step precedes them (`fresh`), facts proven about the tracked cell
    # hold for the cell read too (llumc.invariants.instances)
    content_reads: list = field(default_factory=list)
    # ... and its writes (`ContentWrite`), in the order of the step's blocks: the invariant
    # search's runs and the word-level BMC keep the cells written, so that a content read there
    # returns what the program wrote (llumc.invariants.simulate, llumc.wordbmc.contents)
    content_writes: list = field(default_factory=list)
    stored_constants: set = field(default_factory=set)  # constants written into it (candidates)
    # an object a pointer comparison may meet beside another one: StateVar, its start address
    # as the machine sees it, chosen where it is allocated and kept after it dies, so a later
    # object may get it (docs/memory.md, "Allocation model and address reuse")
    address: object = None
    element_cells: bool = False  # a one-dimensional array of cell-sized elements: cell k is `x[k]`
    # how many of its loads one integer comparison compares at most: 2 (`a[j] > a[j + 1]`), 1
    # (`a[j] > key`) or 0; the invariant search's facts over the cells of small exact arrays
    # (`candidates._exact_cells`) are proposed only for the comparisons the program makes
    compared_cells: int = 0
    pointees: set = field(default_factory=set)  # ids of the objects its initializer points to
    # a function's address (its tag, llumc.frontend.procedures): the function's name; no cell
    # of it may be read or written (its size is 0)
    function: str | None = None
    # main's arguments (llumc.frontend.mainargs): "vector" (argv: `size` bytes hold argv[0 ..
    # MODELLED_ARGUMENTS-1], `terminator` is argv[argc] wherever it lies) or "string" (`size`
    # bytes hold the first MODELLED_BYTES of one argument); `size_var` is the real size, which
    # may be larger: an access inside it but outside what is held ends the run undecided
    argument: str | None = None
    terminator: object = None  # StateVar of the vector: argv[argc] (NULL at the start)
    strings: list = field(default_factory=list)  # the vector: the string objects, argv[0] first

    def cell_text(self, index: str) -> str:
        """Cell `index` (a C expression) of the object as C reads it: `a[k]`, or `a.cell[k]`
        where a cell is not an element (a 2-D array, structs, bytes of wider elements)."""
        return f"{self.c_name}[{index}]" if self.element_cells else f"{self.c_name}.cell[{index}]"

    def field_text(self, index: str, offset: int) -> str:
        """The cell at byte `offset` of element `index` of an object tracked per element:
        `t[k]` for the element's first cell, `t[k]+4` for the one 4 bytes in (as exact cells
        of structs are named)."""
        return f"{self.c_name}[{index}]" + (f"+{offset}" if offset else "")


@dataclass
class HeapPool:
    """A malloc/calloc call site that may run more than once (inside a loop): `objects` are its
    K objects, each allocated at most once; its n-th run returns object n (from 1), counted by
    `counter` (StateVar, the runs so far, 0 at the start); a run when all K are taken reaches
    the allocation bound, an outcome of its own (docs/memory.md, "Allocation sites in loops")."""

    site_key: int
    name: str  # "malloc_6": the site (its objects are `malloc_6#1` ...)
    where: str  # file:line of the call
    objects: list = field(default_factory=list)
    counter: object = None
    # a run hands out the first freed (or never allocated) object instead of the next one:
    # no pointer to an earlier run's object is live where the site runs (`_recycles`)
    recycles: bool = False
    # one object summarises every run's block (`SITE_SUMMARY`, `MemoryObject.summary`)
    summary: bool = False


class _StepUpdates(dict):
    """A step's new values of memory state variables (index -> term), counting every update:
    reads of abstract memory share a value only between updates (`MemoryEncoder._read_havoc`)."""

    def __init__(self) -> None:
        super().__init__()
        self.updates = 0

    def __setitem__(self, key: int, value: Term) -> None:
        self.updates += 1
        super().__setitem__(key, value)


@dataclass
class ContentRead:
    """A read of one cell of an abstract object with a tracked cell. Where no memory update
    precedes it in its step (`fresh`), the havoc value it returns off the tracked cell stands for
    the cell's contents at the step's start, the state a loop invariant at `head` speaks of;
    otherwise for the contents after the object's first `writes_before` writes
    (`MemoryObject.content_writes`; those of the same step precede it, in their order). The
    word-level BMC gives every read the contents the writes left (llumc.wordbmc.contents)."""

    head: str  # the cut point its step starts at
    value: Term  # the havoc input it returns where it misses the tracked cell
    offset: Term  # its byte offset in the object (OFFSET_BITS wide)
    condition: Term  # it runs in the step and hits the object (over the step's state and inputs)
    fresh: bool = True
    writes_before: int = 0
    # a summary's read after updates of its step: (first, last) index of the object's
    # `content_writes` of this step before it, where nothing else changed the object's cells in
    # the step (no lifetime started): where none of those writes covers its cell, it too
    # returns the cell's contents at the step's start (`p->next` read after `p->data = 0`)
    step_writes: tuple[int, int] | None = None


@dataclass
class ContentWrite:
    """A write into an abstract object with a tracked cell: one cell's new value, or None for a
    write of another size (its cells' contents are not followed by the invariant search; the
    word-level BMC follows a whole object's write of any value, as a lifetime's start makes it,
    and a memset of a constant: `size` bytes of `written`, `uniform` for a memset)."""

    head: str
    value: Term | None
    offset: Term
    condition: Term  # it runs and hits the object
    size: int = 0
    written: Term | None = None
    uniform: bool = False


@dataclass
class MemoryFault:
    """An access that may be invalid: `cond` (over the step's current state and inputs) holds
    when the step runs it and it is invalid; `null` when its pointer is NULL."""

    head: str  # the step (cut point) it belongs to
    line: int | None
    access: str  # "read of 4 bytes", "memset of 40 bytes"
    cond: Term
    null: Term
    # (description, condition) per object the pointer may point to that can be dead (a
    # followed local, a heap object): the condition holds when it points to it and it is
    dead: list = field(default_factory=list)
    # (description, condition) per argument of main the access may touch: the condition holds
    # when it lies inside the argument but outside what the model holds of it (undecided)
    unmodelled: list = field(default_factory=list)
    leak: bool = False  # not an access: heap memory no pointer reaches, or not freed at the end
    # not an access: an allocation site in a loop ran more often than its pool has objects
    # (`HeapPool`): the allocation bound, neither an error nor a valid run
    bound: bool = False


@dataclass
class NativeMismatch:
    """An allocation of nondeterministic size a native run does not make as the model does:
    `cond` (over the step's current state and inputs) holds when the step runs it with a VLA
    length <= 0 (undefined in C; natively the stack pointer moves up into the frame) or more
    than NATIVE_ALLOCATION_BYTES (natively malloc may return NULL and a VLA overruns the stack,
    or under 32 bits wraps to a small size). A counterexample through one is not replayed:
    the native run could not be trusted to follow it."""

    head: str
    line: int | None
    description: str
    cond: Term


# the largest allocation of nondeterministic size a native replay is trusted to make as the model
# does: well inside the at least 128 MiB Linux keeps free below the stack (a larger VLA could land in
# mapped memory), and the replay harness's arena (LLUMC_ARENA_BYTES)
NATIVE_ALLOCATION_BYTES = 1 << 24


def _unmodelled_text(access: str, obj: MemoryObject) -> str:
    """What an undecided access of main's arguments touches, for the UNKNOWN's reason."""
    if obj.argument == "vector":
        return (f"{access} of argv[{MODELLED_ARGUMENTS}] or a later argument (argc > {MODELLED_ARGUMENTS}): "
                f"llumc models argv[0..{MODELLED_ARGUMENTS - 1}] and argv[argc] only")
    return (f"{access} of {obj.c_name} past its first {MODELLED_BYTES} bytes: llumc models the first "
            f"{MODELLED_BYTES} bytes of each argument only")


def pointer_text(objects: list[MemoryObject], value: int) -> str:
    """A pointer value as C: `NULL`, `&a[3]`, `&x`, `a+40` (one past the end), `invalid`, a
    summary's node `&malloc_8[999]` (`+4` for a field in it)."""
    object_id = value >> OFFSET_BITS
    offset = value & ((1 << OFFSET_BITS) - 1)
    offset -= (offset >> (OFFSET_BITS - 1)) << OFFSET_BITS
    if object_id == NULL_OBJECT:
        return "NULL" if offset == 0 else f"NULL+{offset}"
    obj = next((o for o in objects if o.id == object_id), None)
    if obj is None:
        return "invalid pointer"
    if obj.function is not None and offset == 0:
        return f"&{obj.function}"
    if obj.summary and obj.node_stride and offset >= 0:  # node n of a summary: `&malloc_8[n]`
        node, within = divmod(offset, obj.node_stride)
        return f"&{obj.c_name}[{node}]" + (f"+{within}" if within else "")
    if 0 <= offset < obj.size and offset % obj.cell == 0 and obj.cells:
        return "&" + obj.cells[offset // obj.cell].name
    return f"{obj.c_name}{offset:+d}"


def stored_pointer_text(objects: list[MemoryObject], word: int, bits: int) -> str:
    """A pointer as memory holds it (object id in the top byte) as C."""
    low = bits - OBJECT_BITS
    offset = word & ((1 << low) - 1)
    offset -= (offset >> (low - 1)) << low
    return pointer_text(objects, ((word >> low) << OFFSET_BITS) | (offset & ((1 << OFFSET_BITS) - 1)))


# --------------------------------------------------------------------------- type layout


class Layout:
    """Sizes and offsets of LLVM types, from the module's data layout."""

    def __init__(self, module):
        import llvmlite.binding as llvm

        self.module = module
        self.target = llvm.create_target_data(module.data_layout) if module is not None else None
        layout = module.data_layout if module is not None else ""
        self.pointer_bytes = 4 if re.search(r"(^|-)p:32", layout) else 8
        self._structs: dict[str, object] = {}

    def _struct(self, ty: str):
        name = ty[1:].strip('"')
        if name not in self._structs:
            try:
                self._structs[name] = self.module.get_struct_type(name)
            except (NameError, AttributeError):
                raise _unsupported(f"type {ty}") from None
        return self._structs[name]

    def size(self, ty: str) -> int:
        """Allocation size in bytes (the stride of an array of `ty`)."""
        ty = ty.strip()
        array = re.fullmatch(r"\[(\d+) x (.+)\]", ty)
        if array:
            return int(array.group(1)) * self.size(array.group(2))
        integer = re.fullmatch(r"i(\d+)", ty)
        if integer:
            bits = int(integer.group(1))
            return 1 << max(0, math.ceil(math.log2(max(1, (bits + 7) // 8)))) if bits <= 128 else (bits + 7) // 8
        if ty == "ptr":
            return self.pointer_bytes
        if ty in FLOAT_WIDTHS:
            return FLOAT_WIDTHS[ty] // 8
        if ty.startswith("%"):
            return self.target.get_abi_size(self._struct(ty))
        raise _unsupported(f"type {ty}")

    def store_size(self, ty: str) -> int:
        """Bytes a load or store of `ty` touches."""
        integer = re.fullmatch(r"i(\d+)", ty.strip())
        return (int(integer.group(1)) + 7) // 8 if integer else self.size(ty)

    def field(self, ty: str, index: int) -> tuple[str, int]:
        """(type, byte offset) of field `index` of a named struct."""
        struct = self._struct(ty)
        elements = [str(e) for e in struct.elements]
        if not 0 <= index < len(elements):
            raise _unsupported(f"field {index} of {ty}")
        return elements[index], self.target.get_element_offset(struct, index)

    def constant_bytes(self, ty: str, text: str, address_of=None) -> bytes:
        """Contents of an initializer (`zeroinitializer`, integers, arrays, `c"..."`, structs,
        `ptr @g` when `address_of(name)` gives the object id of a global)."""
        ty, text = ty.strip(), text.strip()
        size = self.size(ty)
        if text in ("zeroinitializer", "null", "undef", "poison"):
            # undef/poison occur in padding only; static storage is zero there
            return bytes(size)
        if ty == "ptr" and address_of is not None and re.fullmatch(r"@(\"[^\"]+\"|[\w.$-]+)", text):
            # a pointer as the target stores it (`_to_memory`): object id in the top byte
            object_id = address_of(text[1:].strip('"'))
            return (object_id << (8 * self.pointer_bytes - OBJECT_BITS)).to_bytes(self.pointer_bytes, "little")
        if ty in FLOAT_WIDTHS:
            bits = float_constant(ty, text)
            if bits is None:
                raise _unsupported(f"initializer {text[:40]}")
            return bits.to_bytes(size, "little")
        integer = re.fullmatch(r"i(\d+)", ty)
        if integer:
            if text in ("true", "false"):
                value = int(text == "true")
            elif re.fullmatch(r"-?\d+", text):
                value = int(text)
            else:
                raise _unsupported(f"initializer {text[:40]}")
            return (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
        array = re.fullmatch(r"\[(\d+) x (.+)\]", ty)
        if array and text.startswith('c"'):
            raw = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text[2:-1])
            return raw.encode("latin-1").ljust(size, b"\0")
        if array and text.startswith("["):
            element = array.group(2)
            out = b""
            for part in split_top(text[1:-1]):
                part_ty, part_value = split_type(part)
                out += self.constant_bytes(part_ty, part_value, address_of)
            return out.ljust(size, b"\0")
        if ty.startswith("%") and text.startswith("{"):
            out = bytearray(size)
            for index, part in enumerate(split_top(text.strip("<>")[1:-1])):
                part_ty, part_value = split_type(part)
                _, offset = self.field(ty, index)
                data = self.constant_bytes(part_ty, part_value, address_of)
                out[offset:offset + len(data)] = data
            return bytes(out)
        raise _unsupported(f"initializer {text[:40]}")


def _unsupported(construct: str, where: str = "") -> UnsupportedError:
    err = UnsupportedError(f"unsupported: {construct}" + (f" at {where}" if where else ""))
    err.category = "memory"
    err.construct = construct
    return err


# --------------------------------------------------------------------------- the encoder


@dataclass(frozen=True)
class _Congruence:
    """Byte offsets `r + k * modulus` (k >= 0 any, r in `residues`): a pointer from a GEP at
    a computed index (`MemoryEncoder._gep_offsets`)."""
    modulus: int
    residues: frozenset[int]


# a pointer's possible byte offsets from its object's start: a finite set, a congruence, or
# None (any offset)
_Offsets = frozenset[int] | _Congruence | None


def _shifted_congruence(base: _Offsets, constant: int, modulus: int) -> _Congruence:
    """`base + constant + any multiple of modulus` (base not None)."""
    if isinstance(base, _Congruence):
        modulus = math.gcd(modulus, base.modulus)
        residues = base.residues
    else:
        residues = base
    return _Congruence(modulus, frozenset((r + constant) % modulus for r in residues))


def _join_offsets(a: _Offsets, b: _Offsets, limit: int) -> _Offsets:
    """Offsets either may have: finite sets unite up to `limit` members (then any); with a
    congruence, the gcd of the moduli and the residues modulo it."""
    if a is None or b is None:
        return None
    if isinstance(a, _Congruence) or isinstance(b, _Congruence):
        modulus = math.gcd(*(x.modulus for x in (a, b) if isinstance(x, _Congruence)))
        residues = frozenset(r % modulus for x in (a, b) for r in (x.residues if isinstance(x, _Congruence) else x))
        return _Congruence(modulus, residues)
    both = a | b
    return both if len(both) <= limit else None


# a congruence is spelled out as offsets within an object of at most this many bytes
MAX_CONGRUENCE_BYTES = 1 << 16


def _spelled(access: "_Access", obj) -> frozenset[int]:
    """An access's offsets (not None) as numbers within `obj`."""
    if isinstance(access.offset, _Congruence):
        return _offsets_within(access.offset, obj)
    return frozenset({access.offset})


def _residues_meet(first: list["_Access"], second: list["_Access"], limit: int = 4096) -> bool:
    """Whether a byte of an access of `first` may be one of an access of `second`, judged by
    the bytes' residues modulo the least common multiple of the accesses' moduli: where they
    differ, no byte is shared, however large the object (an array of 100 000 structs whose
    `int` flag and pointer lie at offsets 0 and 4 modulo 8). True (they may meet) beyond a
    modulus of `limit`."""
    modulus = math.lcm(*(a.offset.modulus for a in first + second if isinstance(a.offset, _Congruence)))
    if modulus > limit:
        return True

    def residues(accesses: list["_Access"]) -> set[int]:
        found: set[int] = set()
        for a in accesses:
            if isinstance(a.offset, _Congruence):
                starts = {(r + j * a.offset.modulus) % modulus for r in a.offset.residues
                          for j in range(modulus // a.offset.modulus)}
            else:
                starts = {a.offset % modulus}
            found |= {(start + k) % modulus for start in starts for k in range(min(a.size, modulus))}
        return found

    return bool(residues(first) & residues(second))


def _offsets_within(offsets: _Offsets, obj) -> frozenset[int] | None:
    """The offsets a pointer may have inside `obj`: a congruence spelled out over the object's
    constant size (None where that is unknown or too large, or for any offset)."""
    if not isinstance(offsets, _Congruence):
        return offsets
    if obj.size_operands or obj.argument or not 0 < obj.size <= MAX_CONGRUENCE_BYTES:
        return None
    return frozenset(o for r in offsets.residues for o in range(r, obj.size, offsets.modulus))


@dataclass
class _Access:
    size: int
    pointer: bool  # the loaded/stored value is a pointer
    offset: int | _Congruence | None  # offset from the object's start, when known


class MemoryEncoder:
    """Objects, points-to sets and the terms of memory instructions for one step encoder.

    Use: `declare_state()` once after the encoder's own state; per step `begin_step(head)`,
    `encode(...)` for each memory instruction in execution order, `end_step(here, writes)`."""

    def __init__(self, fn: Function, tb: TermBuilder, new_state, debug=None, exact_cells: int | None = None,
                 exact_objects: frozenset[str] = frozenset(), strict_allocation: bool = False,
                 heap_pool: int = DEFAULT_HEAP_POOL, pool_cuts: bool = False):
        self.fn, self.tb, self.new_state, self.debug = fn, tb, new_state, debug
        # objects per allocation site in a loop (`HeapPool`); `pool_cuts`: a run past a pool's
        # last object ends without error instead of at the allocation bound (bug finding
        # within the bound only: such a system proves nothing)
        self.heap_pool, self.pool_cuts = heap_pool, pool_cuts
        self.pools: dict[int, HeapPool] = {}  # call site key -> its pool
        # valid-memsafety: an allocation of nondeterministic size that is negative, overflows or
        # exceeds MAX_SYMBOLIC_BYTES is a fault; otherwise (unreach-call, no-overflow) it
        # succeeds with the size asked, as SV-COMP's rules say (`_allocate_symbolic`)
        self.strict_allocation = strict_allocation
        self.layout = Layout(fn.module)
        # read when an encoder is made, not imported: the differential test makes every array
        # abstract (tracked cells everywhere) by setting the module's bound
        self.exact_cells = EXACT_CELLS if exact_cells is None else exact_cells
        # objects (IR names) exact whatever their number of cells, where `can_be_exact`: a
        # refinement after a counterexample through their havoc reads was refuted
        self.exact_objects = exact_objects
        self.objects: list[MemoryObject] = []
        self.object_of_alloca: dict[int, MemoryObject] = {}
        self.object_of_global: dict[str, MemoryObject] = {}
        self.object_of_call: dict[int, MemoryObject] = {}  # malloc/calloc call site -> its object
        self.defs: dict[int, Instr] = {ins.key: ins for b in fn.blocks for ins in b.instrs}
        self.faults: list[MemoryFault] = []
        self.native_mismatches: list[NativeMismatch] = []  # `_allocate_symbolic`, for the replay
        self._current: _StepUpdates = _StepUpdates()  # cell state index -> its value at this point of the step
        # a fresh nondet value of a width for the instruction being encoded (set by the step
        # encoder: one input per instruction and `site`, see `MemoryObject.abstract`; site -2 is
        # the instruction's read, -10 - id a new tracked value of object `id`)
        self.havoc = lambda width, site=-2: (_ for _ in ()).throw(AssertionError("havoc not set"))
        # this step's reads of abstract objects: the havoc input's uid -> the condition under
        # which the read hit a tracked cell where it hit an abstract object (None: the read may
        # return an untracked value, e.g. a read of several cells); see `restrict_error`
        self.step_reads: dict[int, Term | None] = {}
        self._read_memo: dict[int, frozenset[int]] = {}  # term uid -> `_reads_in` (this step)
        self._step_havocs: dict[tuple[int, int, int], Term] = {}  # `_read_havoc` (this step)
        # this step's exact reads: havoc uid -> (byte offset, {(tracked index, cell size)} of
        # the objects it may hit); `restrict_error` compares two reads at one cell
        self.read_sites: dict[int, tuple[Term, set[tuple[int, int]]]] = {}
        self._head = ""
        self._reach: dict[str, set[str]] = {}  # `_reached_from`
        self._collect_objects()
        self.points_to, self.contents = self._points_to()
        # the icmps over pointers, and the objects they need addresses of
        self.pointer_compares, self._addressed = self._pointer_compares()
        for pool in self.pools.values():
            pool.recycles = self._recycles(pool)
        self._used_after_death()
        self._reborn_vlas()
        self.address_bits = 8 * self.layout.pointer_bytes
        # a condition the step must satisfy from here on (an allocator's choice of address),
        # set by `encode` beside `last_fault`: the step encoder blocks the path where it fails
        self.last_assumption: Term | None = None
        # whether `last_fault` is only invalid accesses (`_record`), which an error edge may
        # restrict to the tracked cells like a failed check (`restrict_error`); not the
        # allocation bound nor an allocation's size
        self.last_fault_is_access = False
        self._choose_cells()

    # ----------------------------------------------------------------- objects
    def _where(self, ins: Instr) -> str:
        name = self.fn.source.rsplit("/", 1)[-1] if self.fn.source else "main"
        return f"{name}:{ins.line}" if ins.line else name

    def _c_name(self, ir_name: str) -> str:
        # a global's name is its C name; only a local's IR name may differ (`%a.global`, `.i`);
        # a compound literal has none (the debug names of its address are the pointer's)
        literal = ir_name.lstrip("%").startswith(".compoundliteral")
        names = self.debug.names_of(ir_name[1:]) if self.debug is not None and ir_name.startswith("%") \
            and not literal else []
        if names:
            return names[0]
        base = ir_name.lstrip("%@").strip('"')
        base = re.sub(r"\.global_*$", "", base)
        return re.sub(r"[^\w.$]", "_", base) or "mem"

    def _new_object(self, ir_name: str, ty: str, size: int, static: bool, where: str) -> MemoryObject:
        if len(self.objects) >= MAX_OBJECTS:
            raise _unsupported(f"more than {MAX_OBJECTS} memory objects", where)
        obj = MemoryObject(len(self.objects) + 1, ir_name, self._c_name(ir_name), ty, size, static, where=where)
        self.objects.append(obj)
        return obj

    def _collect_objects(self) -> None:
        for block in self.fn.blocks:
            for ins in block.instrs:
                if ins.opcode == "alloca":
                    if ins.mem_type is None:
                        raise _unsupported("memory instruction read without its types", self._where(ins))
                    count = 1
                    if ins.operands and not isinstance(ins.operands[0], Const):
                        obj = self._new_object(ins.name, ins.mem_type, 0, False, self._where(ins))
                        obj.size_operands, obj.element = [ins.operands[0]], self.layout.size(ins.mem_type)
                        obj.in_loop = self._in_loop(block.name)
                        self.object_of_alloca[ins.key] = obj
                        continue
                    if ins.operands:
                        count = ins.operands[0].value
                    size = count * self.layout.size(ins.mem_type)
                    obj = self._new_object(ins.name, ins.mem_type, size, False, self._where(ins))
                    # (clang puts locals in the entry block: one in a loop is `__builtin_alloca`'s)
                    obj.in_loop = self._in_loop(block.name)
                    self.object_of_alloca[ins.key] = obj
                elif _is_lifetime_call(ins):
                    obj = self.object_of_alloca.get(ins.operands[0].key) if isinstance(ins.operands[0], Ref) else None
                    if obj is None:
                        raise _unsupported("lifetime marker of something other than a local", self._where(ins))
                    obj.followed = True
                    if ins.callee == LIFETIME_START and self._in_loop(block.name):
                        obj.reborn = True
                elif _is_heap_call(ins) and ins.callee != "free":
                    if self._in_loop(block.name):
                        self.pools[ins.key] = self._heap_pool(ins)
                    else:
                        self.object_of_call[ins.key] = self._heap_object(ins)
                elif _is_argv_call(ins):
                    self.object_of_call[ins.key] = self._argument_objects(ins)
                elif ins.opcode in ("load", "store", "getelementptr") and ins.mem_type is None:
                    raise _unsupported("memory instruction read without its types", self._where(ins))
                elif ins.opcode == "call" and (ins.callee or "").startswith(MEMORY_INTRINSICS):
                    if len(ins.operands) < 3 or not isinstance(ins.operands[2], Const):
                        raise _unsupported(f"{ins.callee.split('.')[1]} of nondeterministic length", self._where(ins))
                for op in ins.operands:
                    if isinstance(op, GlobalAddr) and op.name not in self.object_of_global:
                        self.object_of_global[op.name] = self._global_object(op.name, ins)
        self.vla_deaths = self._vla_deaths()
        # an alloca has no line of its own: name the object's first use in the C program
        for block in self.fn.blocks:
            for ins in block.instrs:
                for op in ins.operands:
                    obj = self.object_of_alloca.get(op.key) if isinstance(op, Ref) else None
                    if obj is not None and ins.line and ":" not in obj.where:
                        obj.where = self._where(ins)

    def _heap_object(self, ins: Instr, pool_index: int | None = None) -> MemoryObject:
        """A malloc/calloc call site's object: the one object of a site that runs at most once
        (not in a loop), or object `pool_index` of a site's pool. SV-COMP assumes allocation
        succeeds, so the site yields that object, allocated from then on."""
        where = self._where(ins)
        sizes = ins.operands[:2] if ins.callee == "calloc" else ins.operands[:1]
        symbolic = not all(isinstance(size, Const) for size in sizes)
        size = 0 if symbolic else math.prod(size.value for size in sizes)
        name = f"{ins.callee}_{ins.line}" if ins.line else ins.callee
        if pool_index is not None:
            name = f"{name}#{pool_index + 1}"
        obj = self._new_object(name, f"[{size} x i8]", size, False, where)
        if symbolic:
            obj.size_operands = list(sizes)
        obj.c_name = name
        obj.heap = ins.callee
        obj.site_key = ins.key
        obj.pool_index = pool_index
        return obj

    def _vla_deaths(self) -> dict[int, list[MemoryObject]]:
        """`llvm.stackrestore` call key -> the VLAs whose lifetime it ends: those allocated after
        the `llvm.stacksave` whose pointer it restores (clang saves the stack where a VLA's
        scope starts and restores it where the scope ends; the inliner does so around an
        inlined callee's). Each such VLA gets an `alive` bit (`followed`), set at its alloca and
        cleared there, so that an access after its scope is a fault, as for a local whose
        lifetime markers are followed. A restore whose saves cannot be traced (through phis
        and selects) ends every VLA; a VLA lies on no cycle (`_collect_objects`), so "after the
        save" is forward reachability from it."""
        allocas = {ins.key: (block, position) for block in self.fn.blocks
                   for position, ins in enumerate(block.instrs)
                   if ins.opcode == "alloca" and ins.key in self.object_of_alloca
                   and (self.object_of_alloca[ins.key].size_operands or self.object_of_alloca[ins.key].in_loop)}
        if not allocas:
            return {}
        defs = {ins.key: (block, position, ins) for block in self.fn.blocks
                for position, ins in enumerate(block.instrs)}

        def saves(op) -> list[tuple] | None:
            found, stack, seen = [], [op], set()
            while stack:
                value = stack.pop()
                if not isinstance(value, Ref) or value.key not in defs:
                    return None
                if value.key in seen:
                    continue
                seen.add(value.key)
                block, position, ins = defs[value.key]
                if ins.opcode == "call" and (ins.callee or "").startswith("llvm.stacksave"):
                    found.append((block, position))
                elif ins.opcode == "phi":
                    stack.extend(v for v, _ in ins.incoming)
                elif ins.opcode in ("select", "freeze"):
                    stack.extend(ins.operands[1:] if ins.opcode == "select" else ins.operands)
                else:
                    return None
            return found

        def after(save: tuple, alloca: tuple) -> bool:
            (save_block, save_at), (block, at) = save, alloca
            return (block.name == save_block.name and at > save_at) or block.name in self._reached_from(save_block.name)

        deaths: dict[int, list[MemoryObject]] = {}
        for block in self.fn.blocks:
            for ins in block.instrs:
                if ins.opcode != "call" or not (ins.callee or "").startswith("llvm.stackrestore"):
                    continue
                restored = saves(ins.operands[0]) if ins.operands else None
                ended = [self.object_of_alloca[key] for key, where in allocas.items()
                         if restored is None or any(after(save, where) for save in restored)]
                if ended:
                    deaths[ins.key] = ended
        return deaths

    def _reborn_vlas(self) -> None:
        """An alloca in a loop (a VLA declared in the loop, `__builtin_alloca` called in it) is
        one object for the blocks of all its runs, allocated anew (size, address, contents) at
        each run. Where no pointer to it is stored in memory or live at the alloca, an earlier
        run's block is unobservable once the next run comes, dead (its scope's restore) or not
        (alloca's memory lives until the function returns), as a recycled heap block is
        (`_recycles`). Otherwise a pointer kept from one run would reach the next run's block:
        `reborn`, never TRUE (a FALSE is still what the native run shows), as for a local
        declared in a loop."""
        self._reborn_compound_literals()
        for block in self.fn.blocks:
            for position, ins in enumerate(block.instrs):
                obj = self.object_of_alloca.get(ins.key) if ins.opcode == "alloca" else None
                if obj is None or not obj.in_loop:
                    continue
                stored = any(obj.id in held for held in self.contents.values())
                live = PointerLiveness.of(self.fn).before(block, position) - {ins.key}
                obj.reborn = obj.reborn or stored or any(
                    obj.id in self._operand_targets(Ref(key, ""), self.points_to) for key in live)

    def _reborn_compound_literals(self) -> None:
        """A compound literal (`(int[]){i, i + 1}`) lives until its C block ends, but clang marks
        no lifetime for it: its alloca lies in the entry block and lives for the whole run
        here. One written in a loop is a new object in each iteration, so a pointer kept from
        one iteration reads a dead object in C (CBMC: "dead object") where the model reads
        this iteration's literal. Where a pointer to it is stored in memory or live (other than
        its alloca) at a store into it in a loop, it is `reborn`, never TRUE, as an alloca in a
        loop is (`_reborn_vlas`). (One in an inner block outside loops, read after its block, is
        not caught: docs/memory.md.)"""
        liveness = None
        for obj in self.objects:
            if not obj.ir_name.lstrip("%").startswith(".compoundliteral"):
                continue
            alloca = next((key for key, found in self.object_of_alloca.items() if found is obj), None)
            stored = any(obj.id in held for held in self.contents.values())
            for block in self.fn.blocks:
                if obj.reborn or not self._in_loop(block.name):
                    continue
                for position, ins in enumerate(block.instrs):
                    if ins.opcode != "store" or len(ins.operands) < 2 \
                            or obj.id not in self._operand_targets(ins.operands[1], self.points_to):
                        continue
                    liveness = liveness or PointerLiveness.of(self.fn)
                    live = liveness.before(block, position) - {alloca}
                    if stored or any(obj.id in self._operand_targets(Ref(key, ""), self.points_to)
                                     for key in live):
                        obj.reborn = True
                        break

    def _used_after_death(self) -> None:
        """Keep of `vla_deaths` only the VLAs that some instruction may use (other than by
        address arithmetic, phis and selects) after a restore that ends them, forward in main's
        CFG (points-to says which instructions use them); give those an `alive` bit
        (`followed`). The others need none: nothing can touch them dead. Why prune: the bit
        is read at every access, and a restore on another branch of the same large block then
        puts that branch's inputs into the access's condition, which keeps its error edge from
        being restricted to the tracked cell (`restrict_error`)."""
        if not self.vla_deaths:
            return
        where = {ins.key: (block, position) for block in self.fn.blocks for position, ins in enumerate(block.instrs)}
        moving = {"getelementptr", "phi", "select", "freeze"}

        def users_after(key: int) -> list:
            block, position = where[key]
            found = list(block.instrs[position + 1:])
            for name in self._reached_from(block.name):
                found += self.fn.block(name).instrs
            return found

        kept: dict[int, list[MemoryObject]] = {}
        for key, ended in self.vla_deaths.items():
            later = [ins for ins in users_after(key) if ins.opcode not in moving]
            touched = [obj for obj in ended
                       if any(isinstance(op, Ref) and obj.id in self._operand_targets(op, self.points_to)
                              for ins in later for op in ins.operands)]
            if touched:
                kept[key] = touched
                for obj in touched:
                    obj.followed = True
        self.vla_deaths = kept

    def _heap_pool(self, ins: Instr) -> HeapPool:
        """A call site in a loop: `heap_pool` objects with consecutive ids (its pointer is the
        first id plus the run counter, `_pool_call`)."""
        site = f"{ins.callee}_{ins.line}" if ins.line else ins.callee
        pool = HeapPool(ins.key, site, self._where(ins))
        if self.heap_pool == SITE_SUMMARY:
            obj = self._heap_object(ins, 0)
            obj.c_name = obj.ir_name = site
            obj.summary = pool.summary = True
            pool.objects = [obj]
            return pool
        pool.objects = [self._heap_object(ins, n) for n in range(self.heap_pool)]
        return pool

    # what a pointer to a recycled pool's object may be used for: address arithmetic, accesses
    # through it, phis and selects, comparisons (with NULL, or with objects whose addresses the
    # model does not observe: told apart by id), and the memory calls (free, memset, ...)
    _RECYCLABLE_USES = frozenset({"getelementptr", "load", "store", "phi", "select", "icmp", "freeze"})

    def _recycles(self, pool: HeapPool) -> bool:
        """Whether the site may hand out a freed object of its pool again. Sound when no
        pointer to an object of an earlier run can be used once the site runs again: then a
        freed object is indistinguishable from a new one (its contents are renewed as a new
        block's are, `_renew_contents`), and a run keeps the use-after-free and double-free
        faults of the pool without reuse. Shown without flow: no pointer to the pool's objects
        is stored in memory (a global, another heap object: points-to), none is live where the
        call runs (backward liveness), none is used other than by `_RECYCLABLE_USES` and the
        memory calls (no `ptrtoint`, no call that might keep it), their addresses are not
        observed (no replay choice of the allocator depends on them), and they hold no
        pointers (whose fresh values the model would have to choose) and at most
        MAX_UNINIT_BITS of exact cells (renewed by fresh inputs)."""
        ids = {obj.id for obj in pool.objects}
        if pool.summary or ids & self._addressed or any(ids & stored for stored in self.contents.values()):
            return False
        if any(self.contents.get(i) for i in ids):
            return False
        if any(8 * obj.size > MAX_UNINIT_BITS or obj.size_operands for obj in pool.objects):
            return False
        here = None
        for block in self.fn.blocks:
            for position, ins in enumerate(block.instrs):
                if ins.key == pool.site_key:
                    here = (block, position)
                pointing = any(isinstance(op, Ref) and ids & self._operand_targets(op, self.points_to)
                               for op in list(ins.operands) + [value for value, _ in ins.incoming])
                if pointing and ins.opcode not in self._RECYCLABLE_USES and not self.handles(ins):
                    return False
        if here is None:
            return False
        live = PointerLiveness.of(self.fn).before(*here) - {pool.site_key}
        return not any(ids & self._operand_targets(Ref(key, ""), self.points_to) for key in live)

    def _argument_objects(self, ins: Instr) -> MemoryObject:
        """main's argument vector and the strings it points to (llumc.frontend.mainargs): the
        vector holds MODELLED_ARGUMENTS pointers, each string MODELLED_BYTES bytes; their real
        sizes are state (`size_var`), set where the call runs (`_arguments`)."""
        where = self._where(ins)
        strings = []
        for k in range(MODELLED_ARGUMENTS):
            string = self._new_object(f"argv[{k}]", f"[{MODELLED_BYTES} x i8]", MODELLED_BYTES, False, where)
            string.c_name, string.argument = f"argv[{k}]", "string"
            strings.append(string)
        pointer = self.layout.pointer_bytes
        vector = self._new_object("argv", f"[{MODELLED_ARGUMENTS} x ptr]", MODELLED_ARGUMENTS * pointer, False,
                                  where)
        vector.c_name, vector.argument, vector.strings = "argv", "vector", strings
        return vector

    def _reached_from(self, block_name: str) -> set[str]:
        """The blocks reachable from `block_name` by one edge or more (itself only on a cycle);
        memoised: the allocation sites, VLAs and stack restores all ask."""
        found = self._reach.get(block_name)
        if found is None:
            found, stack = set(), list(successors(self.fn.block(block_name)))
            while stack:
                name = stack.pop()
                if name not in found:
                    found.add(name)
                    stack.extend(successors(self.fn.block(name)))
            self._reach[block_name] = found
        return found

    def _in_loop(self, block_name: str) -> bool:
        return block_name in self._reached_from(block_name)

    def _global_object(self, name: str, ins: Instr) -> MemoryObject:
        module = self.fn.module
        # get_global_variable misses private globals (clang's `@__const.main.b`): search
        gv = next((g for g in module.global_variables if g.name == name), None) if module is not None else None
        if gv is None:
            raise _unsupported(f"address of function or unknown global '{name}'", self._where(ins))
        # a named struct type may print as its whole definition (`%struct.s = type { ... }`)
        ty = str(gv.global_value_type).split(" = type ", 1)[0]
        # (after the name: a global may be called `global`)
        definition = str(gv).strip().split("\n")[0].split(" = ", 1)[-1]
        kind = re.search(r"\b(global|constant) ", definition)
        if kind is None or gv.is_declaration:
            raise _unsupported(f"external global '{name}'", self._where(ins))
        init = definition[kind.end():]
        if not init.startswith(ty + " "):
            raise _unsupported(f"global '{name}'", self._where(ins))
        init = re.sub(r"(, (align \d+|section \"[^\"]*\"|!dbg !\d+))*$", "", init[len(ty) + 1:])
        obj = self._new_object("@" + name, ty, self.layout.size(ty), True, self._where(ins))
        self.object_of_global[name] = obj  # before its initializer, which may point to itself
        obj.function = function_of_tag(name)
        if obj.function is not None:
            obj.c_name = obj.function  # a function's address (llumc.frontend.procedures)

        def address_of(global_name: str) -> int:
            target = self.object_of_global.get(global_name) or self._global_object(global_name, ins)
            obj.pointees.add(target.id)
            return target.id

        obj.initial = self.layout.constant_bytes(ty, init, address_of)
        return obj

    # ----------------------------------------------------------------- points-to
    def _operand_targets(self, op, pts: dict[int, set[int]]) -> set[int]:
        if isinstance(op, Ref):
            alloca = self.object_of_alloca.get(op.key) or self.object_of_call.get(op.key)
            if alloca is not None:
                return {alloca.id}
            pool = self.pools.get(op.key)
            if pool is not None:
                return {obj.id for obj in pool.objects}
            return pts.get(op.key, set())
        if isinstance(op, GlobalAddr):
            return {self.object_of_global[op.name].id}
        if isinstance(op, Const):
            return {NULL_OBJECT} if op.value == 0 else {INVALID_OBJECT}
        return {INVALID_OBJECT}

    def _points_to(self) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
        """Flow-insensitive: value key -> objects it may point to; object -> objects the
        pointers stored in it may point to. A fixpoint over main's instructions."""
        pts: dict[int, set[int]] = {}
        contents: dict[int, set[int]] = {o.id: set(o.pointees) for o in self.objects}
        for vector in self.objects:
            if vector.argument == "vector":
                contents[vector.id] = {string.id for string in vector.strings} | {NULL_OBJECT}
        instrs = [ins for b in self.fn.blocks for ins in b.instrs]
        changed = True
        while changed:
            changed = False

            def add(target: set[int], new: set[int]) -> None:
                nonlocal changed
                if not new <= target:
                    target |= new
                    changed = True

            for ins in instrs:
                op = ins.opcode
                if ins.width == POINTER_WIDTH and op != "alloca":
                    mine = pts.setdefault(ins.key, set())
                    if op == "getelementptr" or op == "freeze":
                        add(mine, self._operand_targets(ins.operands[0], pts))
                    elif op == "phi":
                        for value, _ in ins.incoming:
                            add(mine, self._operand_targets(value, pts))
                    elif op == "select":
                        for value in ins.operands[1:]:
                            add(mine, self._operand_targets(value, pts))
                    elif op == "load":
                        for o in self._operand_targets(ins.operands[0], pts):
                            add(mine, contents.get(o, set()) or {INVALID_OBJECT})
                    elif op == "call" and (ins.callee or "").startswith("llvm.stacksave"):
                        add(mine, {INVALID_OBJECT})  # a token for llvm.stackrestore only
                    elif op == "call" and (ins.callee or "").startswith(BOUND_PREFIX):
                        add(mine, {INVALID_OBJECT})  # the run ends at the call: never used
                    elif op == "call" and ins.key in self.object_of_call:
                        add(mine, {self.object_of_call[ins.key].id})
                    elif op == "call" and ins.key in self.pools:
                        add(mine, {obj.id for obj in self.pools[ins.key].objects})
                    elif op == "call":
                        raise _unsupported(f"pointer returned by '{ins.callee}'", self._where(ins))
                    else:
                        raise _unsupported(f"pointer operation `{ins.text.strip()[:60]}`", self._where(ins))
                elif op == "store" and ins.mem_type == "ptr":
                    value = self._operand_targets(ins.operands[0], pts)
                    for o in self._operand_targets(ins.operands[1], pts):
                        if o in contents:
                            add(contents[o], value)
                elif _is_memory_call(ins) and "memset" not in ins.callee:
                    source = set()
                    for o in self._operand_targets(ins.operands[1], pts):
                        source |= contents.get(o, set())
                    for o in self._operand_targets(ins.operands[0], pts):
                        if o in contents:
                            add(contents[o], source)
        return pts, contents

    def targets(self, op) -> list[MemoryObject]:
        ids = self._operand_targets(op, self.points_to)
        return [o for o in self.objects if o.id in ids]

    # ----------------------------------------------------------------- cells
    # a pointer with more possible offsets than this has any offset (`_pointer_offsets`)
    MAX_OFFSETS = 16

    def _pointer_offsets(self) -> dict[int, dict[int, "_Offsets"]]:
        """Flow-insensitive, beside the points-to sets: value key -> object id -> the byte
        offsets from that object's start the pointer may have when it points there (None: any),
        through GEPs, phis, selects and pointers stored in memory (a list's `p = p->next` keeps
        offset 0). Per object, so that a `struct node **link` that is `&root` or `&n->left`
        has offset 0 in `root` and 4 in the nodes, not both in each. A GEP at a computed index
        gives a congruence (`_Congruence`: `&table[i].value` is 4 modulo the struct's 8 bytes).
        Which accesses may overlap a stored pointer rests on it (`_check_pointer_mixing`).
        NULL and invalid pointers point into no object and add no offset."""
        instrs = [ins for b in self.fn.blocks for ins in b.instrs]
        offsets: dict[int, dict[int, _Offsets]] = {}
        # object -> the offsets (per object pointed to) of the pointers stored in it
        stored: dict[int, dict[int, _Offsets]] = {o.id: {target: None for target in o.pointees}
                                                   for o in self.objects}
        for vector in self.objects:
            if vector.argument == "vector":
                stored[vector.id] = {target: frozenset({0}) for target in vector.pointees}
        changed = True

        def of(op) -> dict[int, _Offsets]:
            if isinstance(op, GlobalAddr):
                obj = self.object_of_global.get(op.name)  # (a function's address: no object)
                return {} if obj is None else {obj.id: frozenset({0})}
            if not isinstance(op, Ref):
                return {}
            if op.key in self.object_of_alloca or op.key in self.object_of_call or op.key in self.pools:
                return {target: frozenset({0}) for target in self._operand_targets(op, self.points_to)}
            return offsets.get(op.key, {})

        def join(a: dict[int, _Offsets], b: dict[int, _Offsets]) -> dict[int, _Offsets]:
            out = dict(a)
            for target, value in b.items():
                out[target] = _join_offsets(out.get(target, frozenset()), value, self.MAX_OFFSETS)
            return out

        def update(table: dict, key: int, new: dict[int, _Offsets]) -> None:
            nonlocal changed
            old = table.get(key, {})
            joined = join(old, new)
            if joined != old:
                table[key] = joined
                changed = True

        while changed:
            changed = False
            for ins in instrs:
                op = ins.opcode
                if ins.width == POINTER_WIDTH and op != "alloca":
                    if op == "getelementptr":
                        new = {target: self._gep_offsets(ins, base) for target, base in of(ins.operands[0]).items()}
                    elif op == "phi":
                        new = {}
                        for value, _ in ins.incoming:
                            new = join(new, of(value))
                    elif op == "select":
                        new = join(of(ins.operands[1]), of(ins.operands[2]))
                    elif op == "freeze":
                        new = of(ins.operands[0])
                    elif op == "load":
                        new = {}
                        for o in self._operand_targets(ins.operands[0], self.points_to):
                            new = join(new, stored.get(o, {}))
                    else:  # allocation sites (their uses read {0}, `of`), calls that end the run
                        new = {}
                    update(offsets, ins.key, new)
                elif op == "store" and ins.mem_type == "ptr":
                    for o in self._operand_targets(ins.operands[1], self.points_to):
                        if o in stored:
                            update(stored, o, of(ins.operands[0]))
                elif _is_memory_call(ins) and "memset" not in ins.callee:
                    source: dict[int, _Offsets] = {}
                    for o in self._operand_targets(ins.operands[1], self.points_to):
                        source = join(source, stored.get(o, {}))
                    for o in self._operand_targets(ins.operands[0], self.points_to):
                        if o in stored:
                            update(stored, o, source)
        return offsets

    def _gep_offsets(self, ins: Instr, base: "_Offsets") -> "_Offsets":
        """The offsets of a GEP's result from those of its base: constant indices add their
        byte offset; a computed index into an array (or the first index) adds any multiple of
        the element's size, so the result is a congruence modulo the gcd of those sizes."""
        if base is None:
            return None
        constant, modulus = 0, 0
        ty = ins.mem_type
        try:
            for position, index in enumerate(ins.operands[1:]):
                value = None
                if isinstance(index, Const):
                    value = index.value - (1 << index.width) if index.value >> (index.width - 1) & 1 else index.value
                elif not isinstance(index, Ref):
                    return None
                if position == 0:
                    step, is_field = self.layout.size(ty), False
                else:
                    ty, step, is_field = self._step_type(ty, value, ins)
                if is_field:
                    constant += step
                elif value is None:
                    modulus = math.gcd(modulus, step)
                else:
                    constant += value * step
        except UnsupportedError:
            return None
        if modulus == 0:
            if isinstance(base, _Congruence):
                return _Congruence(base.modulus, frozenset((r + constant) % base.modulus for r in base.residues))
            return frozenset(b + constant for b in base)
        return _join_offsets(frozenset(), _shifted_congruence(base, constant, modulus), self.MAX_OFFSETS)

    def _offsets_of(self, op, target: int) -> "_Offsets":
        """The byte offsets from the start of object `target` a pointer operand may have where it
        points there (None: any; also where the analysis found none, which the points-to sets
        may still see otherwise)."""
        if isinstance(op, GlobalAddr):
            return frozenset({0})
        if not isinstance(op, Ref):
            return None
        if op.key in self.object_of_alloca or op.key in self.object_of_call or op.key in self.pools:
            return frozenset({0})
        return self._offsets.get(op.key, {}).get(target) or None

    def _constant_gep(self, ins: Instr) -> int:
        total = 0
        ty = ins.mem_type
        for position, index in enumerate(ins.operands[1:]):
            value = index.value - (1 << index.width) if index.value >> (index.width - 1) & 1 else index.value
            if position == 0:
                total += value * self.layout.size(ty)
            else:
                ty, stride_or_offset, is_field = self._step_type(ty, value, ins)
                total += stride_or_offset if is_field else value * stride_or_offset
        return total

    def _step_type(self, ty: str, index: int | None, ins: Instr) -> tuple[str, int, bool]:
        """One GEP index into `ty`: (inner type, element stride or field offset, is a field)."""
        array = re.fullmatch(r"\[(\d+) x (.+)\]", ty.strip())
        if array:
            return array.group(2), self.layout.size(array.group(2)), False
        if ty.strip().startswith("%"):
            if index is None:
                raise _unsupported("struct field at a computed index", self._where(ins))
            inner, offset = self.layout.field(ty, index)
            return inner, offset, True
        raise _unsupported(f"getelementptr into {ty}", self._where(ins))

    def _accesses(self) -> dict[int, list[_Access]]:
        found: dict[int, list[_Access]] = {o.id: [] for o in self.objects}
        for block in self.fn.blocks:
            for ins in block.instrs:
                pointers: list[tuple[object, int, bool]] = []
                if ins.opcode == "load":
                    pointers.append((ins.operands[0], self.layout.store_size(ins.mem_type), ins.mem_type == "ptr"))
                elif ins.opcode == "store":
                    pointer = ins.mem_type == "ptr"
                    if self._is_uninit_value(ins.operands[0]):
                        pointer = None  # any bits: fine over pointers and integers alike
                    pointers.append((ins.operands[1], self.layout.store_size(ins.mem_type), pointer))
                elif _is_memory_call(ins):
                    length = ins.operands[2].value
                    if length == 0:
                        continue
                    zero = "memset" in ins.callee and isinstance(ins.operands[1], Const) and ins.operands[1].value == 0
                    pointers.append((ins.operands[0], length, None if zero or "memset" not in ins.callee else False))
                    if "memset" not in ins.callee:
                        pointers.append((ins.operands[1], length, None))
                for op, size, pointer in pointers:
                    for obj in self.targets(op):
                        offsets = self._offsets_of(op, obj.id)
                        if isinstance(offsets, _Congruence):  # spelled out where needed (`_spelled`)
                            found[obj.id].append(_Access(size, pointer, offsets))
                        else:
                            found[obj.id] += [_Access(size, pointer, offset) for offset in offsets] \
                                if offsets is not None else [_Access(size, pointer, None)]
        return found

    def _is_uninit_value(self, op) -> bool:
        if isinstance(op, Literal):
            return False
        ins = self.defs.get(op.key) if isinstance(op, Ref) else None
        return ins is not None and ins.opcode == "call" and (ins.callee or "").startswith("__llumc_uninit_")

    def _choose_cells(self) -> None:
        self._offsets = self._pointer_offsets()
        accesses = self._accesses()
        self._access_lists = accesses
        for obj in self.objects:
            sizes = [a.size for a in accesses[obj.id]] + ([obj.size] if not obj.size_operands else [])
            g = math.gcd(*sizes) if sizes else 1
            obj.cell = g & -g if g else 1  # largest power of two dividing every access size
            self._check_pointer_mixing(obj, accesses[obj.id])
            typed = [a for a in accesses[obj.id] if a.pointer is not None]
            obj.pointer_cells = bool(typed) and all(a.pointer for a in typed) and \
                obj.cell == self.layout.pointer_bytes
            cells = obj.size // obj.cell if obj.size else 0
            if obj.heap:
                obj.type_text = f"[{cells} x i{8 * obj.cell}]"
            # (main's arguments stay exact whatever the bound: what they hold is small)
            large = cells > self.exact_cells and not (obj.ir_name in self.exact_objects and can_be_exact(obj))
            obj.abstract = (large or bool(obj.size_operands) or self._not_fresh_where_declared(obj)) \
                and not obj.argument
            if obj.argument == "vector" and obj.cell != self.layout.pointer_bytes:
                raise _unsupported("argv read or written other than as whole pointers", obj.where)
            if obj.summary:
                self._summarise(obj, accesses[obj.id])
        pooled = sum(obj.size // obj.cell for obj in self.objects if obj.pool_index is not None and not obj.abstract)
        if pooled > MAX_POOL_CELLS and self.heap_pool > DEFAULT_HEAP_POOL:
            # (the first pools are always encoded: each of their objects is within EXACT_CELLS)
            raise _unsupported(f"heap pools of {self.heap_pool} objects per site ({pooled} exact cells, "
                               f"beyond the budget of {MAX_POOL_CELLS})")

    def _summarise(self, obj: MemoryObject, accesses: list[_Access]) -> None:
        """Make a site's summary (`SITE_SUMMARY`) abstract with one node as its tracked element,
        or refuse the program (UNKNOWN: the check falls back to pools) where the summary could
        hide what the program does. The summary puts node n at offset n * stride of one object,
        so it must be shown, without flow, that nothing tells that object from separate blocks:
        - every pointer into it has constant offsets inside one block (`_pointer_offsets`): no
          address arithmetic reaches a neighbouring node, which in C is outside the block;
        - a node may be freed: the tracked node has a freed bit (`node_freed`), so a free or an
          access of a freed node faults where that node is the tracked one; every other node
          stays valid while n < runs (the first fault of a run is found with its node tracked);
        - no comparison orders two of its pointers, nor meets another object's (that needs
          addresses, and C leaves the order of separate blocks to the allocator); equality of
          two of its pointers is exact: separate live blocks never share an address. Where
          nodes are freed, only comparisons with a constant (NULL) are taken: a freed block's
          address may be handed out again, which the layout, node n for run n, never does;
        - the block has a constant size, at most TRACKED_FIELDS cells padded to a power of two,
          and each pointer in it fills one cell (the tracked node holds it exactly).
        Nodes are numbered up to MAX_SUMMARY_NODES (and what a pointer's offset holds in
        memory); the runs past them share the far nodes (`_summary_call`), so a site may run
        any number of times."""
        where = obj.where
        if obj.size_operands or obj.size == 0:
            raise _unsupported("summary of an allocation of nondeterministic size", where)
        stride = 1 << (obj.size - 1).bit_length()
        if stride // obj.cell > self.TRACKED_FIELDS or obj.cell > self.TRACKED_CELL_BYTES:
            raise _unsupported(f"summary of blocks of more than {self.TRACKED_FIELDS} cells", where)
        pointers = set()
        for access in accesses:
            offsets = _spelled(access, obj) if access.offset is not None else None
            if offsets is None:
                raise _unsupported("summary of blocks accessed at computed offsets", where)
            if any(o < 0 or o + access.size > obj.size for o in offsets):
                raise _unsupported("summary of blocks accessed outside the block", where)
            if access.pointer:
                if access.size != obj.cell:
                    raise _unsupported("summary of blocks whose pointers span several cells", where)
                pointers |= offsets
        for key, targets in self.points_to.items():
            offsets = self._offsets.get(key, {}).get(obj.id) if key not in self.pools else frozenset({0})
            if obj.id in targets and (not isinstance(offsets, frozenset) or not offsets
                                      or any(not 0 <= o < obj.size for o in offsets)):
                raise _unsupported("summary of blocks whose pointers leave the block", where)
        if obj.id in self._addressed:
            raise _unsupported("summary of blocks whose addresses are compared", where)
        compared = None  # the first equality of two of its pointers (not with NULL)
        for block in self.fn.blocks:
            for ins in block.instrs:
                if ins.opcode == "icmp" and any(obj.id in self._operand_targets(op, self.points_to)
                                                for op in ins.operands):
                    if ins.predicate not in ("eq", "ne"):
                        raise _unsupported("summary of blocks whose pointers are ordered", self._where(ins))
                    if compared is None and not any(isinstance(op, Const) for op in ins.operands):
                        compared = ins
                if ins.opcode == "call" and ins.callee == "free" and \
                        obj.id in self._operand_targets(ins.operands[0], self.points_to):
                    obj.frees_nodes = True
        if obj.frees_nodes and compared is not None:
            raise _unsupported("summary of freed blocks whose pointers are compared "
                               "(a freed block's address may be handed out again)", self._where(compared))
        in_memory = 8 * self.layout.pointer_bytes - OBJECT_BITS - 1  # a stored pointer's offset bits
        obj.abstract = True
        obj.node_stride = stride
        obj.max_nodes = min(MAX_SUMMARY_NODES, (1 << in_memory) // stride)
        # summaries sharing a tracked index share their far nodes only where every one's
        # count of nodes is a power of two (the index's width decides the rest)
        assert obj.max_nodes & (obj.max_nodes - 1) == 0, obj.max_nodes
        obj.far_node = obj.max_nodes - 2
        obj.node_pointers = tuple(sorted(pointers))

    @staticmethod
    def _not_fresh_where_declared(obj: MemoryObject) -> bool:
        """A local the front end does not set to a fresh value where it is declared (more than
        MAX_UNINIT_BITS): exact, one declared in a loop would keep the previous iteration's
        contents, which C does not promise (a wrong TRUE could rest on them); abstract, every
        read outside a tracked cell is any value (`_trackable` gives it none). Globals main
        alone uses (`%x.global`) start from their initializer at main's entry: exact."""
        return not (obj.static or obj.heap or obj.size_operands or obj.argument
                    or obj.ir_name.endswith(".global")) and 8 * obj.size > MAX_UNINIT_BITS

    def _check_pointer_mixing(self, obj: MemoryObject, accesses: list[_Access]) -> None:
        """Pointers are stored in a representation of our own: integer accesses that overlap a
        stored pointer (reading its bytes, type punning) would see that, not the machine's
        address. Allowed only where constant offsets show they do not overlap."""
        pointer = [a for a in accesses if a.pointer is True]
        integer = [a for a in accesses if a.pointer is False]
        if not pointer or not integer:
            return
        if any(a.offset is None for a in pointer + integer):
            raise _unsupported(f"pointers and integers stored in the same memory ('{obj.c_name}')")
        spelled = {id(a): _spelled(a, obj) for a in pointer + integer}
        if None in spelled.values():  # too large to spell out: apart by their residues, or refused
            if _residues_meet(pointer, integer):
                raise _unsupported(f"pointers and integers stored in the same memory ('{obj.c_name}')")
            return
        pointer_bytes = {o + k for a in pointer for o in spelled[id(a)] for k in range(a.size)}
        if any(o + k in pointer_bytes for a in integer for o in spelled[id(a)] for k in range(a.size)):
            raise _unsupported(f"pointer read or written as an integer ('{obj.c_name}')")

    # ----------------------------------------------------------------- state
    def cell_name(self, obj: MemoryObject, index: int) -> str:
        """C name of a cell: `a[3]`, `m[1][2]`, `s[1]+4` (a byte offset inside an element)."""
        offset = index * obj.cell
        name, ty = obj.c_name, obj.type_text.strip()
        while True:
            array = re.fullmatch(r"\[(\d+) x (.+)\]", ty)
            if not array:
                break
            stride = self.layout.size(array.group(2))
            name += f"[{offset // stride}]"
            offset %= stride
            ty = array.group(2).strip()
        try:
            whole = self.layout.size(ty) == obj.cell
        except UnsupportedError:
            whole = False
        return name if offset == 0 and whole else f"{name}+{offset}"

    def declare_state(self) -> None:
        shared: dict[int, object] = {}  # index width -> the tracked index of the objects of that width
        shared_pairs: dict[int, object] = {}  # the same for the second tracked cells
        # summaries' tracked nodes apart: their index is never the far node (`index_constraints`),
        # which an array's index of the same width may be
        shared_nodes: dict[int, object] = {}
        compared_once, compared = self._compared_loads()
        for obj in self.objects:
            obj.compared_cells = 2 if obj.id in compared else 1 if obj.id in compared_once else 0
            for index in range(0 if obj.abstract else obj.size // obj.cell):
                init = None
                if obj.initial is not None:
                    chunk = obj.initial[index * obj.cell:(index + 1) * obj.cell]
                    init = int.from_bytes(chunk, "little")
                name = self.cell_name(obj, index)
                obj.cells.append(self.new_state(name, 8 * obj.cell, "memory", init, [name]))
            if obj.size_operands or obj.argument:
                obj.size_var = self.new_state(f"{obj.c_name}.size", OFFSET_BITS, "memory", None,
                                              [f"{obj.c_name}.size"])
            if obj.argument == "vector":
                name = f"{obj.c_name}[argc]"
                obj.terminator = self.new_state(name, 8 * obj.cell, "memory", None, [name])
            if self._trackable(obj):
                one_d = re.fullmatch(r"\[\d+ x (i\d+|ptr)\]", obj.type_text.strip())
                element = one_d.group(1) if one_d else obj.type_text.strip()
                try:
                    obj.element_cells = (bool(one_d) or bool(obj.size_operands)) and \
                        self.layout.size(element) == obj.cell
                except UnsupportedError:
                    obj.element_cells = False
                stride = self._tracked_element(obj)
                count = obj.size // stride if not obj.size_operands else self._max_size(obj) // stride
                if obj.summary:
                    count = obj.max_nodes
                obj.tracked_index = self._shared_index(obj, max(1, (count - 1).bit_length()),
                                                       shared_nodes if obj.summary else shared)
                obj.tracked_stride = stride
                initial = self._uniform_initial(obj)
                for offset in range(0, stride, obj.cell):
                    name = f"{obj.c_name}[#]" + (f"+{offset}" if offset else "")
                    obj.tracked_fields.append((offset, self.new_state(name, 8 * obj.cell, "memory", initial, [name])))
                obj.tracked_value = obj.tracked_fields[0][1]
                if obj.id in compared and obj.element_cells and stride == obj.cell:
                    width = max(1, (count - 1).bit_length())
                    obj.pair_index = self._shared_index(obj, width, shared_pairs, "tracked_index2")
                    name = f"{obj.c_name}[#2]"
                    obj.pair_value = self.new_state(name, 8 * obj.cell, "memory", initial, [name])
            if obj.frees_nodes:
                if obj.tracked_index is None:
                    raise _unsupported("summary of freed blocks without a tracked node", obj.where)
                name = f"{obj.c_name}[#].freed"
                obj.node_freed = self.new_state(name, 1, "memory", 0, [name])
            if obj.id in self._addressed:
                name = f"{obj.c_name}.address"
                obj.address = self.new_state(name, self.address_bits, "memory", None, [name])
            if (obj.heap or obj.followed) and not obj.summary:
                # not allocated before its call site runs: freed, or not yet allocated; a
                # followed local: dead before its declaration and after its scope (a summary's
                # node n is allocated while n < the site's runs, the tracked one until its free)
                name = f"{obj.c_name}.allocated" if obj.heap else f"{obj.c_name}.alive"
                obj.allocated = self.new_state(name, 1, "memory", 0, [name])
        for obj in self.objects:
            obj.pointer_cell_vars = self._pointer_cells(obj)
        for pool in self.pools.values():
            if pool.recycles:
                continue  # its allocated bits say which objects are free
            name = f"{pool.name}.runs"
            most = pool.objects[0].max_nodes if pool.summary else len(pool.objects)
            pool.counter = self.new_state(name, most.bit_length(), "memory", 0, [name])
            for obj in pool.objects:
                obj.pool_runs = pool.counter

    def index_constraints(self) -> list[Term]:
        """Constraints of every state (U): each object's first tracked index at most its second
        (`pair_index`), and a summary's runs at most its nodes. Sound: the indices never change,
        and a run whose two reads are at cells c1 <= c2 is followed with the first index at c1
        and the second at c2 (`_restrict_pair`); it spares the facts the mirrored case (`l <
        k`). A summary's counter stops at `max_nodes` (`_summary_call`), and its tracked node
        is never the far node, which many blocks share (`_summary_call`; sound: every block is
        some choice's tracked node all the same, a far one node far_node + 1's)."""
        tb = self.tb
        pairs = {(obj.tracked_index.index, obj.pair_index.index): obj for obj in self.objects
                 if obj.pair_index is not None}
        constraints = [tb.not_(tb.op("ult", tb.state(second, obj.pair_index.width),
                                     tb.state(first, obj.tracked_index.width)))
                       for (first, second), obj in pairs.items()]
        # (true of every reachable state; it keeps a node number inside the tracked index's range)
        for obj in self.objects:
            if obj.summary and obj.pool_runs is not None:
                runs = tb.state(obj.pool_runs.index, obj.pool_runs.width)
                constraints.append(tb.not_(tb.op("ult", tb.const(obj.max_nodes, runs.width), runs)))
            if obj.summary and obj.tracked_index is not None:
                index = tb.state(obj.tracked_index.index, obj.tracked_index.width)
                constraints.append(tb.not_(tb.eq(index, tb.const(obj.far_node, index.width))))
        return constraints

    def _compared_loads(self) -> tuple[set[int], set[int]]:
        """The ids of the objects a load of which an integer comparison compares (through
        casts: `a[j] > key`), and of those two loads of which one comparison compares
        (`a[j] > a[j + 1]`: where they are abstract they get a second tracked cell)."""
        def loaded(op) -> Instr | None:
            while isinstance(op, Ref):
                ins = self.defs.get(op.key)
                if ins is None:
                    return None
                if ins.opcode == "load":
                    return ins
                if ins.opcode not in ("sext", "zext", "trunc"):
                    return None
                op = ins.operands[0]
            return None

        once: set[int] = set()
        twice: set[int] = set()
        for block in self.fn.blocks:
            for ins in block.instrs:
                if ins.opcode != "icmp" or len(ins.operands) != 2:
                    continue
                loads = [loaded(op) for op in ins.operands]
                read = [{obj.id for obj in self.targets(load.operands[0])} if load is not None else set()
                        for load in loads]
                once |= read[0] | read[1]
                twice |= read[0] & read[1]
        return once, twice

    def _shared_index(self, obj: MemoryObject, width: int, shared: dict[int, object], what: str = "tracked_index"):
        """The tracked index of `obj`: one state variable for all abstract objects whose
        indices have the same width (docs/memory.md, cell morphing). Sound as one index per
        object is: the index is nondeterministic in the initial state and never changes, and
        the abstraction of each object is sound for every value of it, so it is for the values
        where they coincide; it lets the candidates say `b[#] == a[#]` (a copy) and an error
        edge that compares two such objects at one cell be restricted (`restrict_error`)."""
        name = f"{obj.c_name}.{what}"
        index = shared.get(width)
        if index is None:
            index = shared[width] = self.new_state(name, width, "memory", None, [name])
        else:
            index.c_names.append(name)
        return index

    # cells wider than this are not tracked (a struct read and written whole)
    TRACKED_CELL_BYTES = 16
    # an array of structs of at most this many cells per element is tracked per element
    TRACKED_FIELDS = 4

    def _tracked_element(self, obj: MemoryObject) -> int:
        """The bytes one step of the tracked index covers: an element of a constant-size array
        of structs of 2..TRACKED_FIELDS cells (`table[i].used` and `table[i].value` then are
        both exact at one index, so a fact may relate them: `table[k] != 0 ==> table[k]+4 !=
        0`); a summary's node; the cell otherwise."""
        if obj.summary:
            return obj.node_stride
        if obj.size_operands or obj.heap is not None:
            return obj.cell
        array = re.fullmatch(r"\[(\d+) x (.+)\]", obj.type_text.strip())
        if array is None:
            return obj.cell
        try:
            element = self.layout.size(array.group(2).strip())
        except UnsupportedError:
            return obj.cell
        if element <= obj.cell or element % obj.cell or element // obj.cell > self.TRACKED_FIELDS \
                or obj.size % element:
            return obj.cell
        return element
    # valid-memtrack: at most this many heap objects times pointer cells (the reachability
    # terms grow with their product and the number of heap objects)
    MAX_LEAK_TERMS = 4096

    # ----------------------------------------------------------------- valid-memtrack
    def _pointer_cells(self, obj: MemoryObject) -> list:
        """The cells of an exact object that only ever hold pointers (in the target's format:
        object id in the top byte): all of `int *t[4]`, the pointer fields of structs at
        constant offsets; none where a pointer may sit at a computed offset of a mixed object
        (not counted: a pointer only there counts as lost, which can cost a TRUE, never give one)."""
        if obj.abstract or obj.cell != self.layout.pointer_bytes:
            return []
        if obj.pointer_cells:
            return list(obj.cells)
        accesses = self._access_lists.get(obj.id, [])
        if any(a.offset is None or _spelled(a, obj) is None for a in accesses if a.pointer is True):
            return []
        offsets = {o for a in accesses if a.pointer is True for o in _spelled(a, obj)}
        return [obj.cells[offset // obj.cell] for offset in sorted(offsets)
                if offset % obj.cell == 0 and offset // obj.cell < len(obj.cells)]

    def tracks_leaks(self) -> bool:
        """Whether valid-memtrack can be encoded: some heap object, and terms of bounded size."""
        heap = [obj for obj in self.objects if obj.heap]
        if any(obj.summary for obj in heap):
            return False  # no bit per node says which are allocated
        cells = sum(len(self._pointer_cells(obj)) for obj in self.objects)
        return bool(heap) and len(heap) * (cells + 1) * len(heap) <= self.MAX_LEAK_TERMS

    def untracked_heap(self, pointers: list[Term]) -> Term:
        """Over the step's pre-state: some allocated heap object that no pointer reaches. The
        roots are `pointers` (the state's pointer values: the program's live variables) and
        the pointer cells of globals and of followed locals while alive; from there through the
        pointer cells of reachable allocated heap objects (a list whose head pointer is lost is
        lost whole, a cycle does not reach itself). Not roots: other locals' cells (an inlined
        callee's local array keeps its contents after the call returned, with no alive bit to
        say so), abstract objects' contents; leaving a root out can cost a TRUE, never give one."""
        tb = self.tb
        heap = [obj for obj in self.objects if obj.heap]
        top = lambda word: tb.extract(word, word.width - 1, word.width - OBJECT_BITS)
        cells_of = {obj.id: [self._cell(var) for var in self._pointer_cells(obj)] for obj in self.objects}
        roots = {}
        for target in heap:
            terms = [tb.eq(top(value), tb.const(target.id, OBJECT_BITS)) for value in pointers]
            for obj in self.objects:
                if obj.heap or not cells_of[obj.id] or not (obj.static or obj.followed):
                    continue
                holds = tb.any_of([tb.eq(top(cell), tb.const(target.id, OBJECT_BITS)) for cell in cells_of[obj.id]])
                terms.append(holds if obj.allocated is None else tb.and_(self._cell(obj.allocated), holds))
            roots[target.id] = tb.any_of(terms)
        reached = dict(roots)
        for _ in range(len(heap)):
            reached = {target.id: tb.any_of([roots[target.id]] + [
                tb.and_(tb.and_(reached[holder.id], self._cell(holder.allocated)),
                        tb.any_of([tb.eq(top(cell), tb.const(target.id, OBJECT_BITS)) for cell in cells_of[holder.id]]))
                for holder in heap if holder is not target and cells_of[holder.id]]) for target in heap}
        return tb.any_of([tb.and_(self._cell(obj.allocated), tb.not_(reached[obj.id])) for obj in heap])

    def allocated_heap(self) -> Term:
        """At this point of the step: some heap object is still allocated."""
        return self.tb.any_of([self._cell(obj.allocated) for obj in self.objects
                               if obj.heap and obj.allocated is not None])

    def record_leak(self, line: int | None, what: str, cond: Term) -> None:
        self.faults.append(MemoryFault(self._head, line, what, cond, self.tb.false(), leak=True))

    def _trackable(self, obj: MemoryObject) -> bool:
        """An abstract object gets a tracked cell where its contents at the start of its lifetime
        are known to the encoding: a global (its initializer), a heap object or a VLA (its
        allocation), a local the front end sets to a fresh value where it is declared (at most
        MAX_UNINIT_BITS; a larger local declared in a loop would keep the previous iteration's
        value, which C does not promise)."""
        if not obj.abstract or obj.cell > self.TRACKED_CELL_BYTES:
            return False
        return obj.static or obj.heap is not None or bool(obj.size_operands) or 8 * obj.size <= MAX_UNINIT_BITS

    @staticmethod
    def _uniform_initial(obj: MemoryObject) -> int | None:
        """The tracked cell's initial value: a global's, where every cell of its initializer is
        the same (zero, mostly); otherwise any value (the initial contents of the tracked cell
        are among them)."""
        if obj.initial is None:
            return None
        first = obj.initial[:obj.cell]
        if obj.initial != first * (len(obj.initial) // obj.cell):
            return None
        value = int.from_bytes(first, "little")
        obj.stored_constants.add(value)
        return value

    # ----------------------------------------------------------------- addresses
    def _is_pointer(self, op) -> bool:
        if isinstance(op, GlobalAddr):
            return True
        if isinstance(op, Const):
            return op.width == POINTER_WIDTH
        if isinstance(op, Ref):
            ins = self.defs.get(op.key)
            return ins is not None and ins.width == POINTER_WIDTH
        return False

    def _pointer_compares(self) -> tuple[set[int], set[int]]:
        """(the keys of the icmps over pointers, the ids of the objects that need an address).
        A comparison decides by addresses where it may meet pointers into two different
        objects (a freed block's address handed out again, one past an array's end meeting
        the next object, `p < q` across objects): each of those objects gets an `address`
        (docs/memory.md, "Allocation model and address reuse")."""
        keys: set[int] = set()
        addressed: set[int] = set()
        functions = {obj.id: obj.function is not None for obj in self.objects}

        def objects_of(op) -> set[int]:
            return self._operand_targets(op, self.points_to) - {NULL_OBJECT, INVALID_OBJECT}

        for block in self.fn.blocks:
            for ins in block.instrs:
                if ins.opcode != "icmp" or not any(self._is_pointer(op) for op in ins.operands):
                    continue
                keys.add(ins.key)
                left, right = objects_of(ins.operands[0]), objects_of(ins.operands[1])
                if ins.predicate in ("eq", "ne") and not (left and right):
                    # with NULL (or the invalid object) on one side: decided without addresses,
                    # no object lies at address 0 (`_compare`); a list's `p != NULL` is one
                    continue
                met = left | right
                if len(met) > 1 and not all(functions.get(o) for o in met):
                    # (functions only: distinct functions have distinct addresses, decided by
                    # identity without any address)
                    addressed |= met
        return keys, addressed

    def _observed(self) -> list[MemoryObject]:
        return [obj for obj in self.objects if obj.address is not None]

    @staticmethod
    def _placed_at_allocation(obj: MemoryObject) -> bool:
        """Whether the object gets its address where it is allocated (heap, a local whose
        lifetime is followed, a VLA) rather than once for the whole run."""
        return bool(obj.heap or obj.followed or obj.size_operands or obj.in_loop)

    def _size_term(self, obj: MemoryObject, bits: int) -> Term:
        tb = self.tb
        if obj.size_var is not None:
            size = self._cell(obj.size_var)
            if bits >= size.width:
                return tb.zext(size, bits)
            # (narrower under --32: the address width plus 2 bits holds the size of every object
            # that fits in the address space exactly; a larger one, possible only where an
            # allocation of nondeterministic size exceeds the address space, stays larger than
            # the address space: 2^bits - 1)
            narrow = tb.extract(size, bits - 1, 0)
            if obj.argument or self._max_size(obj) < 1 << bits:
                return narrow
            return tb.ite(tb.op("ult", size, tb.const(1 << bits, size.width)), narrow, tb.const((1 << bits) - 1, bits))
        return tb.const(obj.size, bits)

    def _fits(self, start: Term, obj: MemoryObject) -> Term:
        """The object at `start` is not NULL and it and its one-past-the-end address lie in
        the address space without wrapping (as every object C can allocate does)."""
        tb = self.tb
        bits = self.address_bits + 2
        end = tb.op("add", tb.zext(start, bits), self._size_term(obj, bits))
        top = tb.const((1 << self.address_bits) - 1, bits)
        return tb.and_(tb.not_(tb.eq(start, tb.const(0, start.width))), tb.not_(tb.op("ult", top, end)))

    def _extent(self, obj: MemoryObject, bits: int) -> Term:
        """The bytes the object occupies: its size; a function (size 0 as an object: nothing
        in it may be read or written) occupies at least one byte of code, so no other
        function or object starts at its address."""
        return self.tb.const(1, bits) if obj.function is not None else self._size_term(obj, bits)

    def _disjoint(self, start: Term, obj: MemoryObject, other: MemoryObject) -> Term:
        tb = self.tb
        bits = self.address_bits + 2
        mine, theirs = tb.zext(start, bits), tb.zext(self._cell(other.address), bits)
        mine_end = tb.op("add", mine, self._extent(obj, bits))
        their_end = tb.op("add", theirs, self._extent(other, bits))
        return tb.or_(tb.not_(tb.op("ult", theirs, mine_end)), tb.not_(tb.op("ult", mine, their_end)))

    def _static_layout(self) -> Term:
        """The objects that live for the whole run (globals, locals whose lifetime is not
        followed) and whose addresses are observed: placed apart, each one fitting."""
        tb = self.tb
        fixed = [obj for obj in self._observed() if not self._placed_at_allocation(obj)]
        holds = tb.true()
        for position, obj in enumerate(fixed):
            start = self._cell(obj.address)
            holds = tb.and_(holds, self._fits(start, obj))
            for other in fixed[position + 1:]:
                holds = tb.and_(holds, self._disjoint(start, obj, other))
        return holds

    def _place(self, obj: MemoryObject, guard: Term) -> None:
        """Where `obj` is allocated (under `guard`) the allocator picks its address: any that
        fits and overlaps no object alive now. A dead object's address is free again, so it
        may be picked (glibc's malloc usually does just that): every choice a real allocator
        can make is one of these. Sets `last_assumption` (the choice is valid)."""
        if obj.address is None:
            return
        tb = self.tb
        start = self.havoc(self.address_bits, -1000 - obj.id)
        valid = tb.and_(self._fits(start, obj), self._static_layout())
        for other in self._observed():
            if other is obj:
                continue
            alive = self._cell(other.allocated) if other.allocated is not None else tb.true()
            valid = tb.and_(valid, tb.or_(tb.not_(alive), self._disjoint(start, obj, other)))
        self._current[obj.address.index] = tb.ite(guard, start, self._cell(obj.address))
        self._assume(tb.or_(tb.not_(guard), valid))

    def _assume(self, cond: Term) -> None:
        previous = self.last_assumption
        self.last_assumption = cond if previous is None else self.tb.and_(previous, cond)

    def _address(self, pointer: Term, targets: list[MemoryObject]) -> tuple[Term, Term]:
        """(the pointer's address as the machine sees it, whether it is known here: NULL plus
        an offset, or a pointer into an object with an address)."""
        tb = self.tb
        obj_bits = tb.extract(pointer, POINTER_WIDTH - 1, OFFSET_BITS)
        offset = tb.extract(pointer, self.address_bits - 1, 0)
        address = offset
        known = tb.eq(obj_bits, tb.const(NULL_OBJECT, OBJECT_BITS))
        for obj in targets:
            if obj.address is None:
                continue
            hit = tb.eq(obj_bits, tb.const(obj.id, OBJECT_BITS))
            address = tb.ite(hit, tb.op("add", self._cell(obj.address), offset), address)
            known = tb.or_(known, hit)
        return address, known

    def _within(self, pointer: Term, targets: list[MemoryObject]) -> Term:
        """The pointer points into one of `targets` or one past its end (offset 0..size):
        there its address is the object's plus the offset, without wrapping (`_fits`)."""
        tb = self.tb
        obj_bits = tb.extract(pointer, POINTER_WIDTH - 1, OFFSET_BITS)
        offset = tb.extract(pointer, OFFSET_BITS - 1, 0)
        within = tb.false()
        for obj in targets:
            if obj.summary:  # in a node handed out, or one past its block
                inside = self._in_node(offset, 0, obj)[0]
            else:
                size = self._size_term(obj, OFFSET_BITS)
                inside = tb.and_(tb.not_(tb.op("slt", offset, tb.const(0, OFFSET_BITS))),
                                 tb.not_(tb.op("slt", size, offset)))
            within = tb.or_(within, tb.and_(tb.eq(obj_bits, tb.const(obj.id, OBJECT_BITS)), inside))
        return within

    def _compare(self, ins: Instr, arg, guard: Term, here: Term) -> Term:
        """A comparison of pointers as the machine makes it (docs/memory.md, "Allocation
        model and address reuse"). Into the same object (or one past its end): by offset, which is exact for
        every address the object can have. Into different objects: by address, where the
        comparison may meet them (each has one then, `_pointer_compares`), so a pointer to a
        freed block equals a later block's when the allocator handed the address out again.
        Anything else (a pointer outside its object, the invalid object, an object without an
        address) ends the step undecided: a counterexample there is UNKNOWN, never FALSE."""
        tb = self.tb
        left, right = arg(0), arg(1)
        targets = [self.targets(op) for op in ins.operands]
        ids = [tb.extract(p, POINTER_WIDTH - 1, OFFSET_BITS) for p in (left, right)]
        same = tb.eq(ids[0], ids[1])
        if any(obj.address is not None and not self._placed_at_allocation(obj) for obj in self.objects):
            self._assume(tb.or_(tb.not_(guard), self._static_layout()))
        addresses = [self._address(p, t) for p, t in zip((left, right), targets)]
        both_known = tb.and_(addresses[0][1], addresses[1][1])
        by_address = [address for address, _ in addresses]
        null = tb.const(0, POINTER_WIDTH)
        within = [tb.or_(self._within(p, t), tb.eq(p, null)) for p, t in zip((left, right), targets)]
        predicate = ins.predicate
        if predicate in ("eq", "ne"):
            offsets = [tb.extract(p, self.address_bits - 1, 0) for p in (left, right)]
            equal = tb.ite(both_known, tb.eq(*by_address),
                           tb.and_(tb.and_(same, tb.eq(*offsets)), self._not_far_apart(left, targets)))
            # different objects, one without an address: unequal while both point inside
            undecided = tb.and_(tb.not_(tb.or_(same, both_known)), tb.not_(tb.and_(*within)))
            result = equal if predicate == "eq" else tb.not_(equal)
        else:
            signed = predicate[0] == "s"
            by_offset = [tb.extract(p, OFFSET_BITS - 1, 0) for p in (left, right)]
            inside = tb.and_(same, tb.and_(*within))
            machine = [tb.zext(a, POINTER_WIDTH) for a in by_address]
            result = tb.ite(inside, self._ordered(predicate[1:], "slt", *by_offset),
                            self._ordered(predicate[1:], "slt" if signed else "ult", *machine))
            undecided = tb.not_(tb.or_(inside, both_known))
        self._record(ins, left, undecided, guard, here, "comparison of pointers outside their objects",
                     null_is_fine=True)
        return result

    def _not_far_apart(self, pointer: Term, targets: list[list[MemoryObject]]) -> Term:
        """For two pointers of one object at one offset: they are one address, unless that
        offset lies in a summary's far node, which many blocks share: then the blocks may be
        one or two, a nondeterministic choice (`_summary_call`)."""
        tb = self.tb
        shared = tb.false()
        both = {obj.id for obj in targets[1]}
        summaries = [obj for obj in targets[0] if obj.summary and obj.id in both]
        if not summaries:
            return tb.true()
        object_bits = tb.extract(pointer, POINTER_WIDTH - 1, OFFSET_BITS)
        node_offset = tb.extract(pointer, OFFSET_BITS - 1, 0)
        for obj in summaries:
            node = self._node_of(node_offset, obj)
            shared = tb.or_(shared, tb.and_(tb.eq(object_bits, tb.const(obj.id, OBJECT_BITS)),
                                            tb.eq(node, tb.const(obj.far_node, OFFSET_BITS))))
        return tb.or_(tb.not_(shared), self.havoc(1))

    def _ordered(self, relation: str, less: str, a: Term, b: Term) -> Term:
        tb = self.tb
        if relation == "lt":
            return tb.op(less, a, b)
        if relation == "gt":
            return tb.op(less, b, a)
        if relation == "le":
            return tb.not_(tb.op(less, b, a))
        return tb.not_(tb.op(less, a, b))

    def constant(self, key: int) -> Term | None:
        """The pointer an alloca yields: a constant (object id, offset 0)."""
        obj = self.object_of_alloca.get(key) or self.object_of_call.get(key)
        return None if obj is None else self.pointer(obj.id)

    def global_address(self, name: str) -> Term:
        return self.pointer(self.object_of_global[name].id)

    def pointer(self, object_id: int, offset: int = 0) -> Term:
        return self.tb.const((object_id << OFFSET_BITS) | (offset & ((1 << OFFSET_BITS) - 1)), POINTER_WIDTH)

    # ----------------------------------------------------------------- steps
    def begin_step(self, head: str) -> None:
        self._head = head
        self._current = _StepUpdates()
        self.step_reads = {}
        self.read_sites = {}
        self._read_memo: dict[int, frozenset[int]] = {}
        self._step_havocs: dict[tuple[int, int, int], Term] = {}
        # summaries: their first content write of this step, and those whose cells something
        # else (a lifetime's start) changed in it (`ContentRead.step_writes`)
        self._step_writes_from = {obj.id: len(obj.content_writes) for obj in self.objects if obj.summary}
        self._step_renewed: set[int] = set()

    def _read_havoc(self, pointer: Term, size: int) -> Term:
        """The value an untracked read of abstract memory returns: any value, but the same one
        for reads of the same address with no write or memory update encoded between them in
        this step (`if (a[i] > m) m = a[i];` loads a[i] twice: with two values `m` could fall
        below a[i], and `\\forall k: k < i ==> a[k] <= m` would not be inductive). Sound: the
        blocks of a step are encoded in topological order, so a write on any path between two
        such reads is encoded between them and gives the later one a value of its own; without
        one, the concrete memory holds one value at that address for both."""
        key = (pointer.uid, size, self._current.updates)
        havoc = self._step_havocs.get(key)
        if havoc is None:
            havoc = self._step_havocs[key] = self.havoc(8 * size)
        return havoc

    def _cell(self, var) -> Term:
        term = self._current.get(var.index)
        return term if term is not None else self.tb.state(var.index, var.width)

    def end_step(self, here: Term, writes: dict[int, list[tuple[Term, Term]]]) -> None:
        for index, term in self._current.items():
            if term is not self.tb.state(index, term.width):
                writes[index].append((here, term))
        self._current = _StepUpdates()

    def handles(self, ins: Instr) -> bool:
        return ins.opcode in MEMORY_OPCODES or _is_memory_call(ins) or _is_heap_call(ins) or _is_lifetime_call(ins) \
            or ins.key in self.pointer_compares or _is_argv_call(ins) or ins.key in self.vla_deaths

    def encode(self, ins: Instr, arg, guard: Term, here: Term) -> Term | None:
        """Encode one memory instruction at the point of the step where `guard` holds when it
        runs. Returns its value (alloca, GEP, load) or None; a possible fault is recorded in
        `self.faults` and returned by `self.last_fault` (the caller ends the step there)."""
        tb = self.tb
        self.last_fault = None
        self.last_fault_is_access = False
        self.last_assumption = None
        op = ins.opcode
        if op == "icmp":
            return self._compare(ins, arg, guard, here)
        if op == "alloca":
            obj = self.object_of_alloca[ins.key]
            if obj.size_operands or obj.in_loop:
                allocated = self._allocate_symbolic(ins, obj, arg, guard, here) if obj.size_operands else guard
                self._start_lifetime(obj, allocated, None)
                self._place(obj, allocated)
                if obj.allocated is not None:  # alive until its scope's stackrestore
                    self._current[obj.allocated.index] = tb.ite(allocated, tb.true(), self._cell(obj.allocated))
                if obj.in_loop:  # this run's block: new contents
                    self._renew_contents(ins, obj, allocated)
            return self.constant(ins.key)
        if ins.key in self.vla_deaths:  # llvm.stackrestore: the VLAs of the scope it ends die
            for obj in self.vla_deaths[ins.key]:
                self._current[obj.allocated.index] = tb.ite(guard, tb.false(), self._cell(obj.allocated))
            return None
        if op == "getelementptr":
            return self._gep(ins, arg)
        if _is_heap_call(ins):
            return self._heap_call(ins, arg, guard, here)
        if _is_argv_call(ins):
            return self._arguments(ins, arg, guard)
        if _is_lifetime_call(ins):
            obj = self.object_of_alloca[ins.operands[0].key]
            alive = tb.true() if ins.callee == LIFETIME_START else tb.false()
            if ins.callee == LIFETIME_START and not obj.size_operands:  # (a VLA: at its alloca)
                self._place(obj, guard)  # before it is alive: apart from the others alive
            self._current[obj.allocated.index] = tb.ite(guard, alive, self._cell(obj.allocated))
            return None
        if op == "load":
            targets = self.targets(ins.operands[0])
            size = self.layout.store_size(ins.mem_type)
            pointer = arg(0)
            value, fault = self._read(pointer, size, targets, tb.and_(here, guard))
            self._record(ins, pointer, fault, guard, here, f"read of {size} bytes", targets,
                         accesses=[(pointer, size, targets)])
            return self._from_memory(value) if ins.mem_type == "ptr" else tb.extract(value, ins.width - 1, 0) \
                if value.width != ins.width else value
        if op == "store":
            size = self.layout.store_size(ins.mem_type)
            stored = ins.operands[0]
            if isinstance(stored, Literal):
                data = self.layout.constant_bytes(stored.type_text, stored.text)
                value = tb.const(int.from_bytes(data[:size], "little"), 8 * size)
            else:
                value = arg(0)
                if ins.mem_type == "ptr":
                    value = self._to_memory(value)
                elif value.width != 8 * size:
                    value = tb.zext(value, 8 * size)
            pointer = arg(1)
            targets = self.targets(ins.operands[1])
            fault = self._fault(pointer, size, targets)
            self._record(ins, pointer, fault, guard, here, f"write of {size} bytes", targets,
                         accesses=[(pointer, size, targets)])
            self._write(pointer, value, targets, tb.and_(guard, tb.not_(fault)))
            return None
        # memset / memcpy / memmove of constant length
        length = ins.operands[2].value
        if length == 0:
            return None
        what = ins.callee.split(".")[1]
        destination = arg(0)
        dest_targets = self.targets(ins.operands[0])
        if what == "memset":
            byte = tb.extract(arg(1), 7, 0)
            value = byte
            # the bytes of the whole length only where an exact object may be written: an
            # abstract one needs one cell of them (a memset of 400 000 bytes: 3.2 M bits)
            exact = [obj.cell for obj in dest_targets if not obj.abstract]
            width = length if exact else min(length, max([obj.cell for obj in dest_targets] or [1]))
            for _ in range(width - 1):
                value = tb.op("concat", byte, value)
            fault = tb.false()
            accesses = [(destination, length, dest_targets)]
        else:
            source = arg(1)
            source_targets = self.targets(ins.operands[1])
            value, fault = self._read(source, length, source_targets, tb.and_(here, guard))
            accesses = [(destination, length, dest_targets), (source, length, source_targets)]
        fault = tb.or_(fault, self._fault(destination, length, dest_targets))
        self._record(ins, destination, fault, guard, here, f"{what} of {length} bytes", dest_targets,
                     accesses=accesses)
        self._write(destination, value, dest_targets, tb.and_(guard, tb.not_(fault)), uniform=what == "memset",
                    size=length)
        return None

    def _heap_call(self, ins: Instr, arg, guard: Term, here: Term) -> Term | None:
        tb = self.tb
        if ins.key in self.pools:
            return self._pool_call(ins, arg, guard, here)
        if ins.callee != "free":
            obj = self.object_of_call[ins.key]
            self._allocate(ins, obj, arg, guard, here)
            return self.pointer(obj.id)
        # free(p): p is NULL, or the start of an allocated heap object, which is then freed
        pointer = arg(0)
        obj_bits = tb.extract(pointer, POINTER_WIDTH - 1, OFFSET_BITS)
        offset = tb.extract(pointer, OFFSET_BITS - 1, 0)
        at_start = tb.eq(offset, tb.const(0, OFFSET_BITS))
        valid = tb.eq(pointer, tb.const(0, POINTER_WIDTH))
        hits = []
        nodes = []  # (summary, the free takes its tracked node)
        for obj in self.targets(ins.operands[0]):
            if obj.summary:
                hit, tracked = self._frees_node(offset, obj_bits, obj)
                nodes.append((obj, tracked))
                valid = tb.or_(valid, hit)
            elif obj.heap:
                hit = tb.and_(tb.and_(tb.eq(obj_bits, tb.const(obj.id, OBJECT_BITS)), at_start),
                              self._cell(obj.allocated))
                hits.append((obj, hit))
                valid = tb.or_(valid, hit)
        fault = tb.not_(valid)
        self._record(ins, pointer, fault, guard, here, "free", null_is_fine=True,
                     targets=[obj for obj, _ in nodes])
        enabled = tb.and_(guard, valid)
        for obj, hit in hits:
            self._current[obj.allocated.index] = tb.ite(tb.and_(enabled, hit), tb.false(), self._cell(obj.allocated))
        for obj, tracked in nodes:
            freed = self._cell(obj.node_freed)
            self._current[obj.node_freed.index] = tb.ite(tb.and_(enabled, tracked), tb.true(), freed)
        return None

    def _tracked_node_freed(self, offset: Term, obj: MemoryObject) -> Term:
        """The node `offset` lies in is a summary's tracked node, and it has been freed."""
        tb = self.tb
        if obj.node_freed is None:
            return tb.false()
        return tb.and_(self._is_tracked_node(offset, obj), self._cell(obj.node_freed))

    def _is_tracked_node(self, offset: Term, obj: MemoryObject) -> Term:
        """The node `offset` lies in is a summary's tracked node (`tracked_index`)."""
        return self.tb.eq(self._node_of(offset, obj), self.tb.zext(self._cell(obj.tracked_index), OFFSET_BITS))

    def _node_of(self, offset: Term, obj: MemoryObject) -> Term:
        """The number of the summary's node that byte `offset` lies in."""
        shift = obj.node_stride.bit_length() - 1
        return self.tb.op("lshr", offset, self.tb.const(shift, OFFSET_BITS)) if shift else offset

    def _frees_node(self, offset: Term, obj_bits: Term, obj: MemoryObject) -> tuple[Term, Term]:
        """(`free` of a summary's pointer is valid: it is the start of a node handed out that
        is not the tracked node freed before; it frees the tracked node). A node other than
        the tracked one is never marked: a double free of it is the model's where it is the
        tracked node (`_summarise`)."""
        tb = self.tb
        if obj.node_freed is None:  # (`_summarise` found no free of its pointers)
            return tb.false(), tb.false()
        inside, within = self._in_node(offset, 1, obj)
        start = tb.eq(within, tb.const(0, within.width))
        hit = tb.and_(tb.and_(tb.eq(obj_bits, tb.const(obj.id, OBJECT_BITS)), tb.and_(inside, start)),
                      tb.not_(self._tracked_node_freed(offset, obj)))
        return hit, tb.and_(hit, self._is_tracked_node(offset, obj))

    def _allocate(self, ins: Instr, obj: MemoryObject, arg, guard: Term, here: Term) -> None:
        """malloc/calloc hands out `obj` where `guard` holds: its size (nondeterministic: set
        here), its address, its allocated bit, its contents (calloc: zero)."""
        tb = self.tb
        if obj.size_operands:
            guard = self._allocate_symbolic(ins, obj, arg, guard, here)
        self._place(obj, guard)  # before it is allocated: apart from the objects alive
        self._current[obj.allocated.index] = tb.ite(guard, tb.true(), self._cell(obj.allocated))
        if obj.heap == "calloc":
            for var in obj.cells:
                self._current[var.index] = tb.ite(guard, tb.const(0, var.width), self._cell(var))
        self._start_lifetime(obj, guard, 0 if obj.heap == "calloc" else None)

    def _pool_call(self, ins: Instr, arg, guard: Term, here: Term) -> Term:
        """A run of an allocation site in a loop: with n runs before it (the counter) it hands
        out the pool's object n (each object once, so its contents start as C says: any value,
        calloc's zero); with all K objects taken it reaches the allocation bound, a fault of
        its own (`MemoryFault.bound`) — or, with `pool_cuts`, the run ends without error."""
        tb = self.tb
        pool = self.pools[ins.key]
        if pool.recycles:
            return self._recycling_call(ins, pool, arg, guard, here)
        if pool.summary:
            return self._summary_call(ins, pool, guard, here)
        runs = self._cell(pool.counter)
        full = tb.eq(runs, tb.const(len(pool.objects), runs.width))
        go = self._allocation_bound(ins, guard, here, full, f"{pool.name} allocated more than {len(pool.objects)} times")
        for n, obj in enumerate(pool.objects):
            self._allocate(ins, obj, arg, tb.and_(go, tb.eq(runs, tb.const(n, runs.width))), here)
        self._current[pool.counter.index] = tb.ite(go, tb.op("add", runs, tb.const(1, runs.width)), runs)
        self._end_at_bound(full)
        first = pool.objects[0].id
        object_id = tb.op("add", tb.zext(runs, OBJECT_BITS), tb.const(first, OBJECT_BITS))
        return tb.op("concat", object_id, tb.const(0, OFFSET_BITS))

    def _summary_call(self, ins: Instr, pool: HeapPool, guard: Term, here: Term) -> Term:
        """A run of a summarised site: with n < F runs before it (F the far node), node n (its
        offset n * stride), which no earlier run got; its contents start as C says because no
        access could reach it before (`_hits_node`): any value (the tracked node's initial
        value, or what a nondeterministic earlier state holds), calloc's zero (written here).
        From run F + 1 on, the far node F, which all those runs' blocks share (untracked: its
        reads are any value, its writes are lost), except the one run a nondeterministic choice
        picks where the tracked index is F + 1: it gets node F + 1, exact, as a tracked node
        below F is. The counter says which far nodes exist: F + 1 once node F is handed out,
        F + 2 once node F + 1 is (then node F counts as handed out too, which only lets more
        pointers be valid). So every block is the tracked node of some choice, and a site may
        run without bound."""
        tb = self.tb
        obj = pool.objects[0]
        runs = self._cell(pool.counter)
        width = runs.width
        far, tracked_far = tb.const(obj.far_node, width), tb.const(obj.far_node + 1, width)
        near = tb.op("ult", runs, far)
        untaken = tb.false()
        if obj.tracked_index is not None:
            index = tb.zext(self._cell(obj.tracked_index), width)
            untaken = tb.and_(tb.eq(index, tracked_far), tb.not_(tb.eq(runs, tb.const(obj.far_node + 2, width))))
        take = tb.and_(tb.and_(tb.not_(near), untaken), self.havoc(1))
        node = tb.ite(near, runs, tb.ite(take, tracked_far, far))
        after = tb.ite(near, tb.op("add", runs, tb.const(1, width)),
                       tb.ite(take, tb.const(obj.far_node + 2, width),
                              tb.ite(tb.eq(runs, far), tb.const(obj.far_node + 1, width), runs)))
        self._current[pool.counter.index] = tb.ite(guard, after, runs)
        shift = obj.node_stride.bit_length() - 1
        offset = tb.zext(node, OFFSET_BITS)
        if shift:
            offset = tb.op("shl", offset, tb.const(shift, OFFSET_BITS))
        pointer = tb.op("concat", tb.const(obj.id, OBJECT_BITS), offset)
        if obj.heap == "calloc":
            self._write(pointer, tb.const(0, 8 * obj.cell), [obj], guard, uniform=True, size=obj.size)
        return pointer

    def _allocation_bound(self, ins: Instr, guard: Term, here: Term, full: Term, what: str) -> Term:
        """A pool's run where all its objects are taken (`full`): the allocation bound, a fault
        of its own (`MemoryFault.bound`), or with `pool_cuts` the end of the run without error.
        Returns the guard under which the run gets an object."""
        tb = self.tb
        if self.pool_cuts:
            self._assume(tb.or_(tb.not_(guard), tb.not_(full)))
        else:
            cond = tb.and_(here, tb.and_(guard, full))
            self.faults.append(MemoryFault(self._head, ins.line, what, cond, tb.false(), bound=True))
        return tb.and_(guard, tb.not_(full))

    def _end_at_bound(self, full: Term) -> None:
        """The step ends where the bound is reached (after the allocations, whose own faults
        `last_fault` may already hold)."""
        if not self.pool_cuts:
            self.last_fault = full if self.last_fault is None else self.tb.or_(self.last_fault, full)
            self.last_fault_is_access = False

    def _recycling_call(self, ins: Instr, pool: HeapPool, arg, guard: Term, here: Term) -> Term:
        """A run of a recycling site (`_recycles`): it hands out the first of the pool's objects
        that is not allocated (freed, or never handed out), with new contents; with all K
        allocated it reaches the allocation bound, as `_pool_call` does."""
        tb = self.tb
        taken_before = tb.true()
        chosen: list[Term] = []
        for obj in pool.objects:
            allocated = self._cell(obj.allocated)
            chosen.append(tb.and_(taken_before, tb.not_(allocated)))
            taken_before = tb.and_(taken_before, allocated)
        full = taken_before
        go = self._allocation_bound(ins, guard, here, full, f"{pool.name} holds more than {len(pool.objects)} blocks at once")
        object_id = tb.const(pool.objects[-1].id, OBJECT_BITS)
        for obj, this in reversed(list(zip(pool.objects, chosen))):
            handed = tb.and_(go, this)
            self._allocate(ins, obj, arg, handed, here)
            self._renew_contents(ins, obj, handed)
            object_id = tb.ite(this, tb.const(obj.id, OBJECT_BITS), object_id)
        self._end_at_bound(full)
        return tb.op("concat", object_id, tb.const(0, OFFSET_BITS))

    def _renew_contents(self, ins: Instr, obj: MemoryObject, guard: Term) -> None:
        """A recycled object's contents where it is handed out again: what a new block's are
        (malloc: any value, a fresh input per exact cell; calloc: zero, set by `_allocate`).
        Its tracked cell is renewed by `_start_lifetime`; the word-level BMC stops following
        its other cells there (a write of no one value)."""
        tb = self.tb
        if obj.heap != "calloc":
            for number, var in enumerate(obj.cells):
                site = -(1 << 24) - (obj.id << 16) - number
                self._current[var.index] = tb.ite(guard, self.havoc(var.width, site), self._cell(var))
        if obj.abstract and obj.tracked_value is not None:
            obj.content_writes.append(ContentWrite(self._head, None, tb.const(0, OFFSET_BITS), guard, obj.size))

    def _start_lifetime(self, obj: MemoryObject, guard: Term, value: int | None) -> None:
        """Where an object is allocated its tracked cell holds what C says: `value` (calloc: 0),
        or any value (malloc, a VLA: a fresh nondet value)."""
        tb = self.tb
        self._step_renewed.add(obj.id)
        for number, (_index, _offset, var) in enumerate(obj.tracked_cells()):
            new = tb.const(value, var.width) if value is not None else self.havoc(var.width,
                                                                                   self._field_site(obj, number))
            self._current[var.index] = tb.ite(guard, new, self._cell(var))
        if value is not None and obj.tracked_fields:
            obj.stored_constants.add(value)

    def _arguments(self, ins: Instr, arg, guard: Term) -> Term:
        """main's arguments where the wrapper asks for them (ARGV_FUNCTION(argc), argc >= 1
        assumed before): the vector's real size is argc + 1 pointers, argv[k] points to string
        k for k < argc and is NULL at k == argc (the terminator beyond the cells). Each
        string's real size S (its length and the NUL) is any of 1..MAX_ARGUMENT_BYTES, its
        bytes before S - 1 are not 0 and byte S - 1 is: assumptions over the strings' cells and
        sizes in this step's pre-state, which nothing wrote before (main's first block)."""
        tb = self.tb
        vector = self.object_of_call[ins.key]
        argc = tb.zext(arg(0), OFFSET_BITS)
        entries = tb.op("add", argc, tb.const(1, OFFSET_BITS))
        size = tb.op("mul", entries, tb.const(vector.cell, OFFSET_BITS))
        self._current[vector.size_var.index] = tb.ite(guard, size, self._cell(vector.size_var))
        null = tb.const(0, 8 * vector.cell)
        for k, (var, string) in enumerate(zip(vector.cells, vector.strings)):
            entry = tb.ite(tb.op("ult", tb.const(k, OFFSET_BITS), argc), self._to_memory(self.pointer(string.id)), null)
            self._current[var.index] = tb.ite(guard, entry, self._cell(var))
        self._current[vector.terminator.index] = tb.ite(guard, null, self._cell(vector.terminator))
        holds = tb.true()
        for string in vector.strings:
            holds = tb.and_(holds, self._string_facts(string))
        self._assume(tb.or_(tb.not_(guard), holds))
        return self.pointer(vector.id)

    def _string_facts(self, string: MemoryObject) -> Term:
        """A C string of any length up to MAX_ARGUMENT_BYTES - 1, as far as its cells hold it."""
        tb = self.tb
        real = self._cell(string.size_var)
        holds = tb.and_(tb.not_(tb.op("ult", real, tb.const(1, OFFSET_BITS))),
                        tb.not_(tb.op("ult", tb.const(MAX_ARGUMENT_BYTES, OFFSET_BITS), real)))
        for j in range(string.size):
            cell = self._cell(string.cells[j // string.cell])
            shift = 8 * (j % string.cell)
            byte = tb.extract(cell, shift + 7, shift)
            zero = tb.eq(byte, tb.const(0, 8))
            end = tb.const(j + 1, OFFSET_BITS)
            holds = tb.and_(holds, tb.and_(tb.or_(tb.not_(tb.op("ult", end, real)), tb.not_(zero)),
                                           tb.or_(tb.not_(tb.eq(real, end)), zero)))
        return holds

    # valid-memsafety: sizes of nondeterministic objects are at most this many bytes, else the
    # allocation is a fault (a negative VLA length, an overflowing multiplication)
    MAX_SYMBOLIC_BYTES = 1 << 31
    # unreach-call, no-overflow: the largest size an object of nondeterministic size is held
    # with (the largest offset a pointer holds); a larger request is held as this many bytes,
    # so an access past it is a fault
    MAX_OBJECT_BYTES = (1 << (OFFSET_BITS - 1)) - 1

    def _max_size(self, obj: MemoryObject) -> int:
        """The largest size in bytes an object of nondeterministic size may get: what its size
        operands' widths allow (a VLA's count is signed), at most MAX_OBJECT_BYTES; under
        valid-memsafety MAX_SYMBOLIC_BYTES. The tracked index covers every cell up to it."""
        if self.strict_allocation:
            return self.MAX_SYMBOLIC_BYTES
        largest = obj.element
        for operand in obj.size_operands:
            width = self._operand_width(operand)
            largest *= (1 << (width - 1)) - 1 if obj.heap is None else (1 << width) - 1
        return min(largest, self.MAX_OBJECT_BYTES)

    def _operand_width(self, operand) -> int:
        """The bit width of a size operand (an instruction's result or a constant; unknown:
        OFFSET_BITS, the widest the encoder extends to)."""
        if isinstance(operand, Ref):
            definition = self.defs.get(operand.key)
            return getattr(definition, "width", None) or OFFSET_BITS
        return getattr(operand, "width", None) or OFFSET_BITS

    def _allocate_symbolic(self, ins: Instr, obj: MemoryObject, arg, guard: Term, here: Term) -> Term:
        """Set the size of an object of nondeterministic size where it is allocated; returns
        the guard under which the allocation succeeded.

        Under valid-memsafety a negative VLA length, an overflowing product or a size over
        MAX_SYMBOLIC_BYTES is a fault. Otherwise (docs/memory.md, "Allocations of
        nondeterministic size") the allocation succeeds, as SV-COMP's rules assume, with the size
        the program asked for computed without wrap-around: element size times the operands
        (a VLA's count signed, malloc's and calloc's unsigned), held as MAX_OBJECT_BYTES where it
        is larger; a VLA of length <= 0 gets 0 bytes, so every access to it is a fault. Only an
        object whose address a comparison needs and that cannot fit in the address space ends
        the run undecided (its address could not be chosen)."""
        if self.strict_allocation:
            return self._allocate_strictly(ins, obj, arg, guard, here)
        tb = self.tb
        size = tb.const(obj.element, OFFSET_BITS)
        overflow = tb.false()
        nonpositive = tb.false()
        for position, _ in enumerate(obj.size_operands):
            term = arg(position)
            if obj.heap is None:  # a VLA's length: a signed count
                nonpositive = tb.or_(nonpositive, tb.not_(tb.op("slt", tb.const(0, term.width), term)))
            term = tb.zext(term, OFFSET_BITS) if term.width < OFFSET_BITS else term
            overflow = tb.or_(overflow, tb.op("umulo", size, term))
            size = tb.op("mul", size, term)
        largest = tb.const(self.MAX_OBJECT_BYTES, OFFSET_BITS)
        size = tb.ite(tb.or_(overflow, tb.op("ult", largest, size)), largest, size)
        size = tb.ite(nonpositive, tb.const(0, OFFSET_BITS), size)
        self._current[obj.size_var.index] = tb.ite(guard, size, self._cell(obj.size_var))
        unlike_native = tb.or_(nonpositive, tb.op("ult", tb.const(NATIVE_ALLOCATION_BYTES, OFFSET_BITS), size))
        asked = "a length <= 0 or more than" if obj.heap is None else "more than"
        what = (f"'{obj.c_name}' is allocated with {asked} {NATIVE_ALLOCATION_BYTES >> 20} MiB at {self._where(ins)}, "
                f"which a native run does not reproduce")
        self.native_mismatches.append(NativeMismatch(self._head, ins.line, what,
                                                     tb.and_(here, tb.and_(guard, unlike_native))))
        if obj.address is None or self._max_size(obj) <= (1 << self.address_bits) - 2:
            return guard
        # its address is compared: no address fits an object this large (`_fits`)
        too_large = tb.op("ult", tb.const((1 << self.address_bits) - 2, OFFSET_BITS), size)
        cond = tb.and_(here, tb.and_(guard, too_large))
        what = (f"address of '{obj.c_name}', whose size exceeds the {self.address_bits}-bit address space, "
                f"compared with other objects")
        self.faults.append(MemoryFault(self._head, ins.line, "allocation", cond, tb.false(), [], [(what, cond)]))
        self.last_fault = too_large if self.last_fault is None else tb.or_(self.last_fault, too_large)
        self.last_fault_is_access = False
        return tb.and_(guard, tb.not_(too_large))

    def _allocate_strictly(self, ins: Instr, obj: MemoryObject, arg, guard: Term, here: Term) -> Term:
        """valid-memsafety's allocation of nondeterministic size: a negative VLA length, an
        overflowing product or more than MAX_SYMBOLIC_BYTES is a fault."""
        tb = self.tb
        size = tb.const(obj.element, OFFSET_BITS)
        fault = tb.false()
        for position, _ in enumerate(obj.size_operands):
            term = arg(position)
            term = tb.zext(term, OFFSET_BITS) if term.width < OFFSET_BITS else term
            fault = tb.or_(fault, tb.op("umulo", size, term))
            size = tb.op("mul", size, term)
        fault = tb.or_(fault, tb.op("ult", tb.const(self.MAX_SYMBOLIC_BYTES, OFFSET_BITS), size))
        self._record(ins, tb.const(0, POINTER_WIDTH), fault, guard, here,
                     "allocation of nondeterministic size (negative or too large)", null_is_fine=True)
        self._current[obj.size_var.index] = tb.ite(guard, size, self._cell(obj.size_var))
        return tb.and_(guard, tb.not_(fault))

    def _record(self, ins: Instr, pointer: Term, fault: Term, guard: Term, here: Term, access: str,
                targets: list[MemoryObject] = (), null_is_fine: bool = False,
                accesses: list[tuple[Term, int, list[MemoryObject]]] = ()) -> None:
        """A possible fault of `ins`: `fault` (under `guard`, in the step `here`) ends the step
        in error. `accesses` (pointer, bytes, targets): the accesses whose parts outside what
        the model holds of main's arguments make the fault undecided (`_unmodelled`)."""
        tb = self.tb
        if fault.op == "const" and fault.param == 0:
            return
        obj = tb.extract(pointer, POINTER_WIDTH - 1, OFFSET_BITS)
        cond = tb.and_(here, tb.and_(guard, fault))
        null = tb.false() if null_is_fine else tb.eq(obj, tb.const(NULL_OBJECT, OBJECT_BITS))
        # the pointer's object is a local whose lifetime has ended, or a freed heap object
        dead = [(f"use of local '{target.c_name}' outside its lifetime" if target.followed
                 else f"use of '{target.c_name}' after free",
                 tb.and_(tb.eq(obj, tb.const(target.id, OBJECT_BITS)), tb.not_(self._cell(target.allocated))))
                for target in targets if target.allocated is not None]
        dead += [(f"use of a node of '{target.c_name}' after free",
                  tb.and_(tb.eq(obj, tb.const(target.id, OBJECT_BITS)),
                          self._tracked_node_freed(tb.extract(pointer, OFFSET_BITS - 1, 0), target)))
                 for target in targets if target.node_freed is not None]
        unmodelled = [(_unmodelled_text(access, target), self._unmodelled(access_pointer, size, target))
                      for access_pointer, size, access_targets in accesses
                      for target in access_targets if target.argument]
        self.faults.append(MemoryFault(self._head, ins.line, access, cond, null, dead, unmodelled))
        self.last_fault = fault
        self.last_fault_is_access = not unmodelled

    # ----------------------------------------------------------------- terms
    def _gep(self, ins: Instr, arg) -> Term:
        tb = self.tb
        base = arg(0)
        obj = tb.extract(base, POINTER_WIDTH - 1, OFFSET_BITS)
        offset = tb.extract(base, OFFSET_BITS - 1, 0)
        overflow = tb.false()
        ty = ins.mem_type
        for position in range(1, len(ins.operands)):
            index_op = ins.operands[position]
            if position == 1:
                stride, is_field = self.layout.size(ty), False
            else:
                constant = None
                if isinstance(index_op, Const):
                    constant = index_op.value
                ty, stride, is_field = self._step_type(ty, constant, ins)
            if is_field:
                delta = tb.const(stride, OFFSET_BITS)
            else:
                index = arg(position)
                index = tb.sext(index, OFFSET_BITS) if index.width < OFFSET_BITS else index
                step = tb.const(stride, OFFSET_BITS)
                delta = tb.op("mul", index, step)
                overflow = tb.or_(overflow, tb.op("smulo", index, step))
            overflow = tb.or_(overflow, tb.op("saddo", offset, delta))
            offset = tb.op("add", offset, delta)
        obj = tb.ite(overflow, tb.const(INVALID_OBJECT, OBJECT_BITS), obj)
        return tb.op("concat", obj, offset)

    def _hits(self, pointer: Term, size: int, obj: MemoryObject) -> tuple[Term, Term]:
        """(the access of `size` bytes through `pointer` lies in `obj` at a cell boundary,
        the low bits of its offset for position tests)."""
        tb = self.tb
        obj_bits = tb.extract(pointer, POINTER_WIDTH - 1, OFFSET_BITS)
        offset = tb.extract(pointer, OFFSET_BITS - 1, 0)
        if obj.summary:
            return self._hits_node(offset, obj_bits, size, obj)
        if obj.size_var is not None and not obj.argument:  # offset + size <= the size set at allocation
            inside = self._inside(offset, size, self._cell(obj.size_var))
        elif obj.size < size:
            return tb.false(), tb.const(0, 1)
        else:
            inside = tb.not_(tb.op("ult", tb.const(obj.size - size, OFFSET_BITS), offset))
            if obj.argument:  # inside what the model holds and inside the real argument
                inside = tb.and_(inside, self._inside(offset, size, self._cell(obj.size_var)))
        hit = tb.and_(tb.eq(obj_bits, tb.const(obj.id, OBJECT_BITS)), inside)
        if obj.allocated is not None:
            # freed or not yet allocated (heap), dead (a followed local): invalid
            hit = tb.and_(hit, self._cell(obj.allocated))
        if obj.cell > 1:
            low = tb.extract(offset, obj.cell.bit_length() - 2, 0)
            hit = tb.and_(hit, tb.eq(low, tb.const(0, low.width)))
        bits = max(1, obj.size.bit_length())
        return hit, tb.extract(offset, bits - 1, 0)

    def _hits_node(self, offset: Term, obj_bits: Term, size: int, obj: MemoryObject) -> tuple[Term, Term]:
        """`_hits` for a summary: the access lies in a node the site has handed out (its number
        below the runs so far), inside the node's block, at a cell boundary."""
        tb = self.tb
        if obj.size < size:
            return tb.false(), tb.const(0, 1)
        inside, within = self._in_node(offset, size, obj)
        hit = tb.and_(tb.eq(obj_bits, tb.const(obj.id, OBJECT_BITS)), inside)
        hit = tb.and_(hit, tb.not_(self._tracked_node_freed(offset, obj)))  # (a use after free)
        if obj.cell > 1:
            low = tb.extract(offset, obj.cell.bit_length() - 2, 0)
            hit = tb.and_(hit, tb.eq(low, tb.const(0, low.width)))
        return hit, within

    def _in_node(self, offset: Term, size: int, obj: MemoryObject) -> tuple[Term, Term]:
        """(`size` bytes at `offset` of a summary lie in a node handed out so far, inside its
        block; the offset within the node)."""
        tb = self.tb
        shift = obj.node_stride.bit_length() - 1
        runs = self._cell(obj.pool_runs)
        within = tb.extract(offset, shift - 1, 0) if shift else tb.const(0, 1)
        handed_out = tb.op("ult", self._node_of(offset, obj), tb.zext(runs, OFFSET_BITS))
        inside = tb.not_(tb.op("ult", tb.const(obj.size - size, within.width), within)) \
            if obj.size - size < 1 << within.width else tb.true()
        return tb.and_(handed_out, inside), within

    def _inside(self, offset: Term, size: int, bound: Term) -> Term:
        """An access of `size` bytes at `offset` lies inside an object of `bound` bytes."""
        tb = self.tb
        access = tb.const(size, OFFSET_BITS)
        return tb.and_(tb.not_(tb.op("ult", bound, access)),
                       tb.not_(tb.op("ult", tb.op("sub", bound, access), offset)))

    def _terminator_hit(self, pointer: Term, size: int, obj: MemoryObject) -> Term:
        """The access is argv[argc] where argc >= MODELLED_ARGUMENTS: the vector's `terminator`
        (below that, argv[argc] is one of its cells)."""
        tb = self.tb
        if obj.terminator is None or size != obj.cell:
            return tb.false()
        real = self._cell(obj.size_var)
        offset = tb.extract(pointer, OFFSET_BITS - 1, 0)
        return tb.and_(tb.and_(tb.eq(tb.extract(pointer, POINTER_WIDTH - 1, OFFSET_BITS),
                                     tb.const(obj.id, OBJECT_BITS)),
                               tb.eq(offset, tb.op("sub", real, tb.const(obj.cell, OFFSET_BITS)))),
                       tb.op("ult", tb.const(obj.size, OFFSET_BITS), real))

    def _unmodelled(self, pointer: Term, size: int, obj: MemoryObject) -> Term:
        """The access lies inside argument object `obj` as the real program has it, but outside
        what the model holds of it: the run is undecided there (never TRUE, never FALSE)."""
        tb = self.tb
        offset = tb.extract(pointer, OFFSET_BITS - 1, 0)
        real = tb.and_(tb.eq(tb.extract(pointer, POINTER_WIDTH - 1, OFFSET_BITS), tb.const(obj.id, OBJECT_BITS)),
                       self._inside(offset, size, self._cell(obj.size_var)))
        held = tb.or_(self._hits(pointer, size, obj)[0], self._terminator_hit(pointer, size, obj))
        return tb.and_(real, tb.not_(held))

    def _fault(self, pointer: Term, size: int, targets: list[MemoryObject]) -> Term:
        tb = self.tb
        return tb.not_(tb.any_of([tb.or_(self._hits(pointer, size, obj)[0], self._terminator_hit(pointer, size, obj))
                                  for obj in targets]))

    def _read(self, pointer: Term, size: int, targets: list[MemoryObject], runs: Term) -> tuple[Term, Term]:
        """(the value `size` bytes at `pointer` hold, the read is invalid); `runs`: the read
        runs in the step (where a havoc value it returns is noted: `MemoryObject.havoc_reads`)."""
        tb = self.tb
        value = None
        valid = tb.false()
        for obj in targets:
            hit, position = self._hits(pointer, size, obj)
            terminator = self._terminator_hit(pointer, size, obj)
            if terminator.op != "const" or terminator.param:  # argv[argc]
                value = self._cell(obj.terminator) if value is None else \
                    tb.ite(terminator, self._cell(obj.terminator), value)
                valid = tb.or_(valid, terminator)
            if hit.op == "const" and hit.param == 0:
                continue
            if obj.abstract:
                havoc = self._read_havoc(pointer, size)  # an untracked cell: any value
                here_value, restriction, untracked = havoc, None, hit
                if obj.tracked_value is not None and size == obj.cell:
                    # the tracked cells are exact: a read at one of them returns its contents
                    offset = tb.extract(pointer, OFFSET_BITS - 1, 0)
                    at = tb.false()
                    for index, field_offset, var in reversed(obj.tracked_cells()):
                        here = tb.eq(offset, self._tracked_offset(obj, field_offset, index))
                        here_value = tb.ite(here, self._cell(var), here_value)
                        at = tb.or_(here, at)
                    restriction = tb.or_(tb.not_(hit), at)
                    untracked = tb.and_(hit, tb.not_(at))
                    self.read_sites.setdefault(havoc.uid, (offset, set()))[1].add(
                        (obj.tracked_index.index, obj.tracked_stride, len(obj.tracked_fields) > 1,
                         obj.pair_value is not None))
                    if havoc.op == "input":
                        step_writes = None
                        if obj.summary and obj.id not in self._step_renewed:
                            step_writes = (self._step_writes_from[obj.id], len(obj.content_writes))
                        obj.content_reads.append(ContentRead(self._head, havoc, offset, tb.and_(runs, hit),
                                                             fresh=self._current.updates == 0,
                                                             writes_before=len(obj.content_writes),
                                                             step_writes=step_writes))
                self._note_read(havoc, restriction)
                obj.havoc_reads.append(tb.and_(runs, untracked))
                value = here_value if value is None else tb.ite(hit, here_value, value)
                valid = tb.or_(valid, hit)
                continue
            k = size // obj.cell
            cells = [self._cell(v) for v in obj.cells]
            here_value = None
            for start in range(len(cells) - k, -1, -1):
                word = cells[start]
                for j in range(1, k):
                    word = tb.op("concat", cells[start + j], word)
                if here_value is None:
                    here_value = word
                else:
                    at = tb.eq(position, tb.const(start * obj.cell, position.width))
                    here_value = tb.ite(at, word, here_value)
            value = here_value if value is None else tb.ite(hit, here_value, value)
            valid = tb.or_(valid, hit)
        if value is None:
            value = tb.const(0, 8 * size)
        return value, tb.not_(valid)

    def restrict_error(self, cond: Term) -> Term | None:
        """The restriction of an error edge of this step that reads one abstract object: the
        condition `R` under which that read was exact (it hit the object's tracked cell), so
        that the edge may become `cond ∧ R`; None to leave the edge as it is (it depends on no
        read of abstract memory, on two or more, or on one that is not exact at any index).

        Why this is sound (docs/memory.md, cell morphing): take a concrete run that ends in a
        violation whose step's error condition reads abstract memory once, at byte offset `o`
        of object `x`. Choose `x`'s tracked index to be `o`'s cell. The abstract system follows
        the run step by step — the tracked cell is exact, every other read's havoc value (and
        every fresh tracked value) is chosen as the concrete memory holds it, and every earlier
        restricted error edge is false there because its unrestricted condition was — and in
        the last step the read is at the tracked index, so `R` holds and it returns the
        concrete value: `cond ∧ R` holds and the abstract run reaches `error` too. So each
        reachable concrete violation is an abstract one, and TRUE stays sound. Two reads (`a[i]
        < a[i+1]`) cannot both be at the one tracked index: such edges keep the havoc values,
        unless they may be at one cell of objects sharing the index (`_restrict_pair`)."""
        found = self._reads_in(cond)
        if len(found) == 1:
            return self.step_reads[next(iter(found))]
        if len(found) == 2:
            return self._restrict_pair(*found)
        return None

    def _restrict_pair(self, first: int, second: int) -> Term | None:
        """Two reads in one error condition (`a[j] != b[j]`), each exact at the tracked cell of
        every object it may hit, all of whose objects share one tracked index and one cell size:
        `off1 != off2 ∨ (R1 ∧ R2)`. Sound as one read is: a concrete violation whose two reads
        are at one byte offset `o` is followed with the shared index chosen as `o`'s cell, where
        both reads are exact, so `R1 ∧ R2` holds; one whose reads are at different offsets
        keeps its havoc values (chosen as the memory holds them). For objects tracked per
        element (`table[j].used && table[j].value == 0`) the same with the elements of the
        offsets: a violation whose reads lie in one element e is followed with the index e,
        where every cell of e is tracked. Objects with a second tracked cell (`pair_index`, one
        per index width as the first): `R1 ∧ R2`, each read at one of the two tracked cells; a
        violation whose reads are at cells c1 <= c2 is followed with the first index at c1 and
        the second at c2 (`index_constraints`: the first is at most the second). None
        otherwise."""
        r1, r2 = self.step_reads[first], self.step_reads[second]
        if r1 is None or r2 is None or first not in self.read_sites or second not in self.read_sites:
            return None
        (off1, sites1), (off2, sites2) = self.read_sites[first], self.read_sites[second]
        if len(sites1 | sites2) != 1:
            return None
        tb = self.tb
        (_index, stride, per_element, pair), = sites1 | sites2
        if pair:  # two tracked cells: any two cells of the objects may be them
            return tb.and_(r1, r2)
        if per_element:  # the two reads at one element: each at one of its tracked cells
            off1, off2 = (tb.op("udiv", off, tb.const(stride, OFFSET_BITS)) for off in (off1, off2))
        return tb.or_(tb.not_(tb.eq(off1, off2)), tb.and_(r1, r2))

    def _reads_in(self, root: Term) -> frozenset[int]:
        """The havoc inputs of this step's abstract reads in `root`'s DAG (at most three: more
        are not told apart)."""
        memo = self._read_memo
        for term in postorder(root, memo):
            if term.op == "input":
                found = frozenset([term.uid]) if term.uid in self.step_reads else frozenset()
            else:
                found = frozenset()
                for a in term.args:
                    found |= memo[a.uid]
                    if len(found) > 2:
                        found = frozenset(list(found)[:3])
                        break
            memo[term.uid] = found
        return memo[root.uid]

    def _note_read(self, havoc: Term, restriction: Term | None) -> None:
        """Record a read of an abstract object (one havoc input per instruction, shared by its
        targets): every target must say where the read is exact."""
        earlier = self.step_reads.get(havoc.uid, self.tb.true())
        self.step_reads[havoc.uid] = None if earlier is None or restriction is None else \
            self.tb.and_(earlier, restriction)

    def _write(self, pointer: Term, value: Term, targets: list[MemoryObject], enabled: Term,
               uniform: bool = False, size: int | None = None) -> None:
        """Store `value` (little-endian) at `pointer` where `enabled`; `uniform`: every cell of it
        holds the same bits (memset), and `value` may be shorter than the `size` bytes written
        where only abstract objects are targets."""
        tb = self.tb
        size = size or value.width // 8
        self._current.updates += 1  # a later read of abstract memory gets a value of its own
        for obj in targets:
            if obj.abstract:
                if obj.tracked_value is not None:
                    hit = self._write_tracked(obj, pointer, value, enabled, uniform, size)
                    one = size == obj.cell and value.width == 8 * size
                    obj.content_writes.append(ContentWrite(self._head, value if one else None,
                                                           tb.extract(pointer, OFFSET_BITS - 1, 0),
                                                           tb.and_(enabled, hit), size, value, uniform))
                continue  # the other cells are not tracked
            hit, position = self._hits(pointer, size, obj)
            terminator = self._terminator_hit(pointer, size, obj)
            if terminator.op != "const" or terminator.param:  # argv[argc]
                var = obj.terminator
                self._current[var.index] = tb.ite(tb.and_(enabled, terminator), value, self._cell(var))
            if hit.op == "const" and hit.param == 0:
                continue
            k = size // obj.cell
            width = 8 * obj.cell
            on = tb.and_(enabled, hit)
            for start in range(len(obj.cells) - k + 1):
                at = tb.and_(on, tb.eq(position, tb.const(start * obj.cell, position.width)))
                if at.op == "const" and at.param == 0:
                    continue
                for j in range(k):
                    var = obj.cells[start + j]
                    piece = tb.extract(value, (j + 1) * width - 1, j * width)
                    self._current[var.index] = tb.ite(at, piece, self._cell(var))

    # a write of more cells than this updates the tracked cell with a fresh nondet value (an
    # ite per cell would cost the size of the write, a memset of 400 000 bytes)
    TRACKED_WRITE_CELLS = 16

    def _tracked_offset(self, obj: MemoryObject, field: int = 0, index_var=None) -> Term:
        """The byte offset of an object's tracked cell: its index (`index_var`, by default
        `tracked_index`) times the stride (the cell, or the element of an array of structs),
        plus the field's offset in the element."""
        tb = self.tb
        index = self._cell(obj.tracked_index if index_var is None else index_var)
        stride = obj.tracked_stride or obj.cell
        if stride & (stride - 1) == 0:
            shift = stride.bit_length() - 1
            if shift:
                index = tb.op("concat", index, tb.const(0, shift))
            base = tb.zext(index, OFFSET_BITS)
        else:
            base = tb.op("mul", tb.zext(index, OFFSET_BITS), tb.const(stride, OFFSET_BITS))
        return base if not field else tb.op("add", base, tb.const(field, OFFSET_BITS))

    def _write_tracked(self, obj: MemoryObject, pointer: Term, value: Term, enabled: Term, uniform: bool,
                       size: int) -> Term:
        """`val := (idx within the write) ? the written cell : val`, exact where the write's
        cells are few or all equal, otherwise a fresh nondet value (an over-approximation: the
        value the program writes is one of its values). Returns where the write hits `obj`."""
        tb = self.tb
        hit, _ = self._hits(pointer, size, obj)
        if hit.op == "const" and hit.param == 0:
            return hit
        width = 8 * obj.cell
        k = size // obj.cell
        for number, (index, field_offset, var) in enumerate(obj.tracked_cells()):
            # the tracked cell's position relative to the write (unsigned: below the write wraps)
            relative = tb.op("sub", self._tracked_offset(obj, field_offset, index),
                             tb.extract(pointer, OFFSET_BITS - 1, 0))
            inside = tb.op("ult", relative, tb.const(size, OFFSET_BITS))
            if k == 1 or uniform:
                new = tb.extract(value, width - 1, 0)
                if new.op == "const":
                    obj.stored_constants.add(new.param)
            elif k <= self.TRACKED_WRITE_CELLS:
                new = tb.extract(value, width - 1, 0)
                for j in range(1, k):
                    piece = tb.extract(value, (j + 1) * width - 1, j * width)
                    new = tb.ite(tb.eq(relative, tb.const(j * obj.cell, OFFSET_BITS)), piece, new)
            else:
                new = self.havoc(width, self._field_site(obj, number))
            self._current[var.index] = tb.ite(tb.and_(tb.and_(enabled, hit), inside), new, self._cell(var))
        return hit

    @staticmethod
    def _field_site(obj: MemoryObject, number: int) -> int:
        """The input site of a fresh value of tracked field `number` of `obj` (one per
        instruction and field; object ids are below 256)."""
        return -10 - obj.id if number == 0 else -2000 - 256 * number - obj.id

    def _to_memory(self, pointer: Term) -> Term:
        """A pointer as the target stores it: object id in the top byte, the offset below;
        an offset that does not fit makes it the invalid object."""
        tb = self.tb
        bits = 8 * self.layout.pointer_bytes
        obj = tb.extract(pointer, POINTER_WIDTH - 1, OFFSET_BITS)
        offset = tb.extract(pointer, OFFSET_BITS - 1, 0)
        low = tb.extract(offset, bits - OBJECT_BITS - 1, 0)
        fits = tb.eq(tb.sext(low, OFFSET_BITS), offset)
        obj = tb.ite(fits, obj, tb.const(INVALID_OBJECT, OBJECT_BITS))
        return tb.op("concat", obj, low)

    def _from_memory(self, word: Term) -> Term:
        tb = self.tb
        bits = word.width
        obj = tb.extract(word, bits - 1, bits - OBJECT_BITS)
        offset = tb.sext(tb.extract(word, bits - OBJECT_BITS - 1, 0), OFFSET_BITS)
        return tb.op("concat", obj, offset)
