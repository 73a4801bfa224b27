"""bench.instructions reads callgrind's dumps itself: a function's own instructions, never the
cost of the calls it made (callgrind writes those under ``calls=`` lines, inclusive), and the
dump's totals."""

from __future__ import annotations

from pathlib import Path

from bench.instructions import by_function, totals

# A dump as callgrind writes it with --compress-strings=no: main runs 10 + 5 instructions of
# its own and calls work, whose 100 are written twice (under main, as the call's inclusive
# cost; under work, as its own).
DUMP = """# callgrind format
version: 1
positions: line
events: Ir
summary: 115

ob=/usr/lib/libpython3.so
fl=ceval.c
fn=main
10 10
calls=1 20
11 100
+1 5

fn=work
20 60
+2 40
"""


def test_a_function_counts_its_own_instructions_not_its_calls(tmp_path: Path) -> None:
    dump = tmp_path / "uno.1.2"
    dump.write_text(DUMP)
    counts = by_function(dump)
    assert counts == {"main (libpython3.so)": 15, "work (libpython3.so)": 100}
    assert totals(dump) == 115 == sum(counts.values())
