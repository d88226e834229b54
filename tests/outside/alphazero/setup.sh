#!/usr/bin/env bash
# The scratch environment of the AlphaZero adapter (adapter.py beside this file), outside the
# repository: a Python environment with what the engine needs from the package registry
# (numpy, numba, onnxruntime, and colorama, which its rules module imports), never
# dependencies of this project. Then it says what else the folder needs: the engine's own
# checkout and its network exported to ONNX (docs/strength.md, "Against an outside engine").
#
#   tests/outside/alphazero/setup.sh [DIR]   # default: $ALPHAZERO_DIR, else ~/.cache/azul-arena/alphazero
#
# PYTHON picks the interpreter (default python3, 3.10 or later). Running it again updates the
# packages and checks the folder again.
set -euo pipefail

dir="${1:-${ALPHAZERO_DIR:-$HOME/.cache/azul-arena/alphazero}}"
python="${PYTHON:-python3}"
repo="$(cd "$(dirname "$0")/../../.." && pwd)"
dir="$(realpath -m "$dir")"
case "$dir" in
"$repo" | "$repo"/*)
    echo "setup.sh: $dir is inside the repository; give a folder outside it" >&2
    exit 2
    ;;
esac

mkdir -p "$dir"
if [ ! -x "$dir/venv/bin/python" ]; then
    echo "making the scratch environment $dir/venv"
    "$python" -m venv "$dir/venv"
fi
"$dir/venv/bin/python" -m pip install --quiet --upgrade numpy numba onnxruntime colorama
"$dir/venv/bin/python" -c 'import numba, onnxruntime; print("numba", numba.__version__, "- onnxruntime", onnxruntime.__version__)'

engine="$dir/alpha-zero-general"
missing=0
if [ ! -f "$engine/MCTS.py" ] || [ ! -d "$engine/azul" ]; then
    echo "missing: a checkout of cestpasphoto/alpha-zero-general at $engine (its root: MCTS.py, azul/)"
    missing=1
elif [ ! -f "$engine/azul/pretrained.onnx" ]; then
    echo "missing: $engine/azul/pretrained.onnx, its network azul/pretrained.pt exported to ONNX"
    echo "  with that project's own chkpt_to_onnx.py, in an environment with torch (CPU build)"
    missing=1
fi
if [ "$missing" = 0 ]; then
    echo "ready: ALPHAZERO_DIR=$dir"
fi
exit "$missing"
