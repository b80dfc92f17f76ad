"""`make fast`: mypyc compiles `minis.base.fast.COMPILED` into `.fast/` (docs/engine.md, "The fast build").

mypyc writes its C files and objects under `build/fast/`; the extension modules it makes are copied
into `.fast/` (the shared library and one small module per compiled module, laid out by package) with
`build.json`, the stamp `minis.base.fast` checks: the hash of the compiled sources, the modules, the mypy
that compiled them and the seconds the build took. Nothing compiled goes beside the sources. The new
build is made in `.fast.new/` and takes the place of the old one only when it is complete.

    python tools/build_fast.py [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What the compiler's own process runs (setuptools' build_ext with mypyc's extensions), in build/fast.
SETUP = """
import json, sys
from setuptools import setup
from mypyc.build import mypycify

paths, group, c_dir, lib, temp, jobs = json.loads(sys.argv[1])
setup(
    name=group,
    ext_modules=mypycify(paths, target_dir=c_dir, group_name=group, multi_file=True),
    script_args=["build_ext", "--build-lib", lib, "--build-temp", temp, "--parallel", jobs],
)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--jobs", default="2", help="C compilers run at once (default 2)")
    args = parser.parse_args()
    os.environ["MINIS_FAST"] = "0"  # the build reads the pure sources
    sys.path.insert(0, str(ROOT))
    from minis.base import fast

    work = ROOT / "build" / "fast"
    work.mkdir(parents=True, exist_ok=True)
    lib = work / "lib"
    shutil.rmtree(lib, ignore_errors=True)
    paths = [str(fast.source_file(module)) for module in fast.COMPILED]
    source_hash = fast.source_hash()
    started = time.monotonic()
    env = dict(os.environ, MYPYPATH=str(ROOT), PYTHONPATH=str(ROOT))
    job = json.dumps([paths, fast.GROUP, str(work / "c"), str(lib), str(work / "temp"), str(args.jobs)])
    done = subprocess.run([sys.executable, "-c", SETUP, job], cwd=work, env=env)
    if done.returncode != 0:
        print("make fast: mypyc failed (above); the build in .fast/ is unchanged", file=sys.stderr)
        return 1
    new = fast.FOLDER.with_name(".fast.new")
    shutil.rmtree(new, ignore_errors=True)
    for built in lib.rglob("*.so"):
        target = new / built.relative_to(lib)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)
    import mypy.version

    stamp = {
        "hash": source_hash,
        "modules": list(fast.COMPILED),
        "mypy": mypy.version.__version__,
        "python": sys.version.split()[0],
        "seconds": round(time.monotonic() - started, 1),
    }
    (new / fast.STAMP).write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
    shutil.rmtree(fast.FOLDER, ignore_errors=True)
    new.rename(fast.FOLDER)
    print(f"make fast: {len(fast.COMPILED)} modules compiled into {fast.FOLDER} in {stamp['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
