#!/usr/bin/env bash
# Installs what the torch_npu tests need into the active environment: torch's CPU build (the CUDA
# build on PyPI cannot share a process with torch_npu; pip takes the CPU wheel from this machine
# class's find-links, or from an index named by PIP_EXTRA_INDEX_URL such as
# https://download.pytorch.org/whl/cpu), then torch-npu from PyPI without its dependencies, plus its
# pure-Python ones. About 90 s and 1.2 GB. Used by the tox envs cov and torch-npu (tox.ini).
#   TORCH_VERSION, TORCH_NPU_VERSION: the versions (default 2.13.0 both)
set -euo pipefail
torch_version="${TORCH_VERSION:-2.13.0}"
torch_npu_version="${TORCH_NPU_VERSION:-2.13.0}"
python -m pip install --quiet "torch==$torch_version"
python -c "import sys, torch; sys.exit('torch ' + torch.__version__ + ' is a CUDA build; torch_npu needs the CPU build (docs/torch_npu.md)' if torch.version.cuda else 0)"
python -m pip install --quiet --no-deps "torch-npu==$torch_npu_version"
python -m pip install --quiet numpy pyyaml
echo "install_torch_npu: torch $torch_version (CPU build) and torch-npu $torch_npu_version installed"
