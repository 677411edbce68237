#!/usr/bin/env bash
# Installs Debian's Open MPI (mpirun, mpicc) for the MPI-launched HCCL test (tests/sim/test_hccl_mpi.py).
# Debian/Ubuntu (apt-get); does nothing when present. Used by the tox env multihost (tox.ini).
set -euo pipefail

if command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1; then
    echo "mpi_setup: $(mpirun --version 2>/dev/null | head -n 1) is installed"
    exit 0
fi
bash "$(dirname "$0")/apt_install.sh" mpi_setup openmpi-bin libopenmpi-dev
echo "mpi_setup: $(mpirun --version 2>/dev/null | head -n 1) installed"
