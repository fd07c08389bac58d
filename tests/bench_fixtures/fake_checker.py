"""A stand-in for `llumc check` in the bench tests: a real process that takes the same arguments
and answers what the task file tells it to, so the harness (limits, parsing, scoring) is
exercised without depending on the verifier. Directive in the C file, one per property:
    // fake-checker PROPERTY: true | false | unknown | hang | garbage | hog
hang: sleeps (with a child that sleeps too; its pid goes to $FAKE_CHECKER_PIDFILE);
garbage: prints no JSON; hog: allocates memory until the limit stops it.
    // fake-checker-padding: BYTES
makes the answer's trace and the progress on stderr at least that long (real counterexamples of
tens of thousands of steps give JSON of several MB)."""

import argparse
import json
import os
import re
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("program")
parser.add_argument("--property", required=True)
parser.add_argument("--json", action="store_true")
parser.add_argument("--timeout", type=float, required=True)
parser.add_argument("--engine", required=True)
parser.add_argument("--32", dest="m32", action="store_true")
parser.add_argument("--memory-limit", type=int)
args = parser.parse_args()

text = open(args.program).read()
match = re.search(r"fake-checker " + re.escape(args.property) + r": (\w+)", text)
action = match.group(1) if match else "unknown"

if action == "hang":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    pidfile = os.environ.get("FAKE_CHECKER_PIDFILE")
    if pidfile:
        with open(pidfile, "a") as handle:
            handle.write(f"{os.getpid()} {child.pid}\n")
    time.sleep(600)
if action == "garbage":
    print("this is not JSON")
    sys.exit(3)
if action == "hog":
    blocks = []
    while True:
        blocks.append(bytearray(64 << 20))

padding = re.search(r"fake-checker-padding: (\d+)", text)
size = int(padding.group(1)) if padding else 0
trace = [{"step": i, "changes": {"x": i}} for i in range(size // 30 + 1)] if size else []
if size:
    for i in range(size // 40 + 1):
        print(f"[ {i:8d}s] progress line", file=sys.stderr)

print(json.dumps({
    "verdict": action,
    "property": args.property,
    "engine": args.engine,
    "steps": 0,
    "seconds": 0.0,
    "reason": f"fake engine={args.engine} m32={args.m32} timeout={args.timeout:g}",
    "trace": trace,
}))
