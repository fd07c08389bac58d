"""Check a directory of witnesses (`llumc bench --witness-dir DIR`): each must be valid against
the format's schema (tests/data/witness-2.0.schema.json), and each violation witness's values,
replayed natively, must reach its target. Exit 1 if any is not.

Usage: .venv/bin/python tests/witness_check.py DIR
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import jsonschema
import yaml

from llumc.check.replay import ReplayExpectation, replay

SCHEMA = Path(__file__).parent / "data" / "witness-2.0.schema.json"


def check(directory: Path) -> bool:
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()),
                                                format_checker=jsonschema.FormatChecker())
    valid = invalid = replayed = violations = 0
    for path in sorted(Path(directory).glob("*.yml")):
        entries = yaml.safe_load(path.read_text())
        errors = list(validator.iter_errors(entries))
        if errors:
            invalid += 1
            print(f"INVALID {path.name}: {errors[0].message}")
            continue
        valid += 1
        entry = entries[0]
        if entry["entry_type"] != "violation_sequence":
            print(f"correctness {path.name}: {[i['invariant']['type'] for i in entry['content']]}")
            continue
        violations += 1
        points = [item["waypoint"] for segment in entry["content"] for item in segment["segment"]]
        values = [int(re.fullmatch(r"\\result == (-?\d+)", p["constraint"]["value"]).group(1))
                  for p in points if p["type"] == "function_return"]
        task = entry["metadata"]["task"]
        kind = "overflow" if "overflow" in task["specification"] else "error-call"
        outcome = replay(Path(task["input_files"][0]), values,
                         ReplayExpectation(kind, points[-1]["location"]["line"]),
                         m32=task["data_model"] == "ILP32", timeout=30)
        replayed += outcome.confirmed
        print(f"violation {path.name}: {len(values)} values: {outcome.observed}")
    print(f"valid {valid}, invalid {invalid}; violation witnesses replayed to their target: "
          f"{replayed} of {violations}")
    return invalid == 0 and replayed == violations


if __name__ == "__main__":
    sys.exit(0 if check(Path(sys.argv[1])) else 1)
