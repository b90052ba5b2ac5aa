#!/usr/bin/env bash
# Installs what building, running and testing Tonight needs and a fresh machine lacks:
# the C libraries' headers (libxml2, libzstd, zlib) and pkg-config for the build; zstd, gzip,
# xmllint, GNU time and tzdata for the job, the tests and the benchmarks; strace for the test of
# the publish protocol's fsync order; Python's pyzstd for
# the seekable-format interoperability tests, kubernetes-validate for the manifests and html5lib
# for the run report (headless Chromium, if installed, renders the report in a test). Debian/Ubuntu (apt-get); as root, or with sudo.
# Does nothing when everything is there. (`make run` and `make test` call it.)
set -euo pipefail

packages=(libxml2-dev libzstd-dev zlib1g-dev pkg-config zstd gzip libxml2-utils time tzdata strace)
if ! command -v dpkg >/dev/null 2>&1; then
  echo "install-deps: not a Debian-like system; install by hand: ${packages[*]} and Python's pyzstd" >&2
  exit 0
fi
need=()
for pkg in "${packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
# Any Python 3 will do (pyenv's, the system's); Debian's only when there is none.
command -v python3 >/dev/null 2>&1 || need+=(python3)
python3 -c "import pyzstd" >/dev/null 2>&1 || { python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip); }

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then as_root=(sudo); else
    [ ${#need[@]} -eq 0 ] || { echo "install-deps: missing ${need[*]}; run as root or install sudo" >&2; exit 1; }
  fi
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "install-deps: installing ${need[*]}"
  # A fresh image has no package lists: update first, or every install fails.
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi
# Time zone rules change every year (British Columbia keeps UTC−7 from 2026-11-01, tzdata
# 2026b): an image frozen with an older tzdata gives wrong local times. Versions compare as
# text (2025b < 2026b).
min_tzdata=2026b
tz_version=$(head -n 1 /usr/share/zoneinfo/tzdata.zi 2>/dev/null | sed -n 's/^# version //p')
if [[ -z "$tz_version" || "$tz_version" < "$min_tzdata" ]]; then
  echo "install-deps: tzdata ${tz_version:-missing} is older than $min_tzdata; upgrading"
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq tzdata >/dev/null
  tz_version=$(head -n 1 /usr/share/zoneinfo/tzdata.zi 2>/dev/null | sed -n 's/^# version //p')
  [[ "$tz_version" < "$min_tzdata" ]] && echo "install-deps: warning: tzdata is still $tz_version" >&2
fi
if ! python3 -c "import pyzstd" >/dev/null 2>&1; then
  echo "install-deps: installing Python's pyzstd"
  python3 -m pip install --quiet pyzstd 2>/dev/null || python3 -m pip install --quiet --break-system-packages pyzstd
fi
# The run report is checked by an HTML5 parser that reports every parse error.
if ! python3 -c "import html5lib" >/dev/null 2>&1; then
  echo "install-deps: installing Python's html5lib"
  python3 -m pip install --quiet html5lib 2>/dev/null || python3 -m pip install --quiet --break-system-packages html5lib
fi
# The Kubernetes manifests under Pipelines/ are checked against the API's schemas by the tests.
if ! command -v kubernetes-validate >/dev/null 2>&1; then
  echo "install-deps: installing Python's kubernetes-validate"
  python3 -m pip install --quiet kubernetes-validate 2>/dev/null || python3 -m pip install --quiet --break-system-packages kubernetes-validate
  command -v pyenv >/dev/null 2>&1 && pyenv rehash || true
fi
