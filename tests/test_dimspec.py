"""DimSpec reader and writer: real files from IncPlan and minireachIC3, malformed files, and
a round trip on random systems."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.dimspec import DimSpecError, format_dimspec, parse_dimspec, read_dimspec, write_dimspec
from solvers.transys import TransitionSystem
import shared_data

SHARED = shared_data.SHARED / "dimspec"
DATA = Path(__file__).parent / "data"

# (file, n, |I|, |U|, |G|, |T|, warning kinds expected) — counts are of the clauses actually
# in the files (IncPlan's headers promise other counts).
SHARED_FILES = [
    ("incplan/mini1.cnf", 2, 2, 0, 1, 4, ["declares 2 clauses but has 4"]),
    ("incplan/mini2.cnf", 4, 2, 2, 1, 2, ["declares 4 clauses but has 2"]),
    ("minireachic3/test2.spec", 4, 3, 0, 3, 0, ["no section 'u', 't'"]),
    ("minireachic3/test3.spec", 2, 2, 0, 2, 0, ["no section 'u', 't'"]),
    ("minireachic3/test4.spec", 2, 2, 0, 2, 4, ["no section 'u'"]),
    ("minireachic3/test5.spec", 3, 1, 2, 2, 4, ["sections in order i g u t"]),
    ("minireachic3/freecell.spec", 1481, 30, 118814, 4, 312, []),
]


def read_collecting(path: Path) -> tuple[TransitionSystem, list[str]]:
    warnings: list[str] = []
    return read_dimspec(path, warn=warnings.append), warnings


@pytest.mark.skipif(not SHARED.exists(), reason="shared DimSpec files not present")
@pytest.mark.parametrize("name, n, ni, nu, ng, nt, expected", SHARED_FILES)
def test_shared_files_read_with_their_deviations_warned(name, n, ni, nu, ng, nt, expected):
    ts, warnings = read_collecting(SHARED / name)
    assert (ts.n, len(ts.init), len(ts.universal), len(ts.goal), len(ts.trans)) == (n, ni, nu, ng, nt)
    assert len(warnings) == len(expected)
    for warning, text in zip(warnings, expected):
        assert text in warning and "warning" in warning and str(SHARED / name) in warning


def test_mini1_clauses_and_leading_comments():
    ts, _ = read_collecting(SHARED / "incplan/mini1.cnf")
    assert ts.init == [[1], [-2]]
    assert ts.goal == [[2]]
    assert ts.trans == [[-1, 3], [1, -3], [-1, 4], [1, -4]]
    assert ts.comments == ["number of states: 2", "number of action vars: 0"]
    assert ts.aux is None


# (file, line, cause fragment)
MALFORMED = [
    ("no_header.dimspec", 1, "no section header"),
    ("not_integer.dimspec", 4, "not an integer: 'x2'"),
    ("beyond_vars.dimspec", 4, "literal 3 beyond the 2 variables"),
    ("t_width.dimspec", 3, "not 2n"),
    ("n_disagree.dimspec", 3, "declares 3 variables, but line 1 declared 2"),
    ("unterminated.dimspec", 4, "unterminated clause in section 'g'"),
    ("empty.dimspec", 1, "empty file"),
    ("binary.dimspec", 3, "binary file"),
    ("duplicate.dimspec", 5, "duplicate section 'i' (first at line 1)"),
]


@pytest.mark.parametrize("name, line, cause", MALFORMED)
def test_malformed_file_is_refused_with_file_line_and_cause(name, line, cause):
    with pytest.raises(DimSpecError) as info:
        read_dimspec(DATA / name, warn=None)
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.file, err.line) == (str(DATA / name), line)
    assert cause in err.cause
    assert str(err).startswith(f"{DATA / name}:{line}: ") and "\n" not in str(err)


def test_missing_file_is_a_dimspec_error():
    with pytest.raises(DimSpecError, match="cannot read file"):
        read_dimspec(DATA / "no-such-file.dimspec")


def test_t_width_must_be_twice_the_n_of_the_other_sections():
    with pytest.raises(DimSpecError, match=r"'t' declares 6 variables, not 2n = 4"):
        parse_dimspec("i cnf 2 0\nt cnf 6 0\n")
    with pytest.raises(DimSpecError, match=r"'t' \(line 1\) has width 4 = 2n for n = 2"):
        parse_dimspec("t cnf 4 0\ng cnf 3 0\n")


def test_clauses_may_span_lines_and_comments_may_appear_anywhere():
    warnings: list[str] = []
    ts = parse_dimspec("c lead\ni cnf 3 2\n1 2\n 3 0 -1 0\nc inside\nu cnf 3 0\ng cnf 3 1\n2 0\nt cnf 6 0\n",
                       name="x.dimspec", warn=warnings.append)
    assert ts.init == [[1, 2, 3], [-1]]
    assert ts.comments == ["lead"]
    assert warnings == ["x.dimspec:5: warning: comment after the first section header"]


def test_each_kind_of_warning_is_reported_once_with_its_first_line():
    text = "i cnf 2 5\n1 0\nu cnf 2 7\n2 0\ng cnf 2 0\nt cnf 4 0\n"
    warnings: list[str] = []
    parse_dimspec(text, name="f", warn=warnings.append)
    assert warnings == ["f:1: warning: section 'i' declares 5 clauses but has 1 (counts are ignored, as IncPlan does)"]


def test_missing_t_means_every_state_may_follow_every_state():
    ts = parse_dimspec("i cnf 2 1\n-1 0\ng cnf 2 1\n1 0\n", warn=None)
    assert ts.trans == [] and ts.universal == []


def test_aux_declarations_are_read_back_into_aux_and_not_kept_as_comments():
    ts = parse_dimspec("c symbols\nc aux 2-4 7\nc aux 9\ni cnf 9 0\nu cnf 9 0\ng cnf 9 0\nt cnf 18 0\n")
    assert ts.aux == frozenset({2, 3, 4, 7, 9})
    assert ts.comments == ["symbols"]
    with pytest.raises(DimSpecError, match="'c aux' declares variable 10 beyond n = 9"):
        parse_dimspec("c aux 10\ni cnf 9 0\nu cnf 9 0\ng cnf 9 0\nt cnf 18 0\n")


def test_writer_is_strict_dimspec():
    ts = TransitionSystem(
        n=3,
        init=[[1], [-2, 3]],
        universal=[],
        goal=[[2]],
        trans=[[-1, 4], [5, 6, -3]],
        aux=frozenset({1, 2, 3}) - {1},
        comments=["llumc symbol map", ""],
    )
    assert format_dimspec(ts) == (
        "c llumc symbol map\nc\nc aux 2-3\n"
        "i cnf 3 2\n1 0\n-2 3 0\n"
        "u cnf 3 0\n"
        "g cnf 3 1\n2 0\n"
        "t cnf 6 2\n-1 4 0\n5 6 -3 0\n"
    )
    stream = io.StringIO()
    write_dimspec(ts, stream)
    assert stream.getvalue() == format_dimspec(ts)


def test_writer_refuses_what_would_not_read_back():
    with pytest.raises(ValueError, match="outside"):
        format_dimspec(TransitionSystem(n=2, goal=[[3]]))
    with pytest.raises(ValueError, match="outside"):
        format_dimspec(TransitionSystem(n=2, trans=[[5]]))
    with pytest.raises(ValueError, match="spans lines"):
        format_dimspec(TransitionSystem(n=1, comments=["a\nb"]))
    with pytest.raises(ValueError, match="aux declaration"):
        format_dimspec(TransitionSystem(n=1, comments=["aux 1"]))


@st.composite
def transition_systems(draw) -> TransitionSystem:
    n = draw(st.integers(0, 6))

    def clauses(width: int):
        if width == 0:
            return st.lists(st.just([]), max_size=1)
        literal = st.integers(1, width).flatmap(lambda v: st.sampled_from([v, -v]))
        return st.lists(st.lists(literal, max_size=4), max_size=5)

    aux = draw(st.none() | st.frozensets(st.integers(1, n), max_size=n) if n else st.none())
    comment = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=12).filter(
        lambda c: c.split()[:1] != ["aux"] and c == c.strip()
    )
    return TransitionSystem(
        n=n,
        init=draw(clauses(n)),
        universal=draw(clauses(n)),
        goal=draw(clauses(n)),
        trans=draw(clauses(2 * n)),
        aux=aux,
        comments=draw(st.lists(comment, max_size=3)),
    )


@settings(max_examples=150, deadline=None)
@given(transition_systems())
def test_round_trip_on_random_systems(ts):
    warnings: list[str] = []
    back = parse_dimspec(format_dimspec(ts), warn=warnings.append)
    assert back == ts
    assert warnings == []  # the writer keeps the letter of the format


def _mutations_of_a_valid_file():
    valid = format_dimspec(TransitionSystem(n=3, init=[[1, -2]], universal=[[3]], goal=[[2], [-1, 3]],
                                            trans=[[-1, 4], [2, -5, 6]], comments=["x"]))
    alphabet = "iugtcnf p0123456789-\n\t%x"
    edit = st.tuples(st.integers(0, len(valid)), st.integers(0, 4), st.text(alphabet, max_size=6))

    def apply(edits):
        text = valid
        for pos, cut, insert in edits:
            text = text[:pos] + insert + text[pos + cut:]
        return text

    return st.lists(edit, max_size=4).map(apply) | st.text(alphabet, max_size=80)


@settings(max_examples=400, deadline=None)
@given(_mutations_of_a_valid_file())
def test_any_text_either_reads_within_bounds_or_is_one_dimspec_error(text):
    try:
        ts = parse_dimspec(text, name="fuzz", warn=None)
    except DimSpecError as err:
        assert str(err).startswith("fuzz") and "\n" not in str(err)
        return
    for clauses, width in ((ts.init, ts.n), (ts.universal, ts.n), (ts.goal, ts.n), (ts.trans, 2 * ts.n)):
        assert all(0 < abs(lit) <= width for clause in clauses for lit in clause)
    assert parse_dimspec(format_dimspec(ts), warn=None) == ts
