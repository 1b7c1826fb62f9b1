# Sourced by ./run and ./test: make .venv and install the project into it.
# Idempotent and quiet when nothing changed; a fresh machine needs nothing else.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$here/.venv"
extras="${1:-sim}"
py="${PYTHON:-python3}"
# HALEAKALA_SYSTEM_SITE=1 (./run on a Pi): the venv sees the system site packages, as the
# installer's /opt/haleakala/venv does; an old venv without them is named, not patched over.
site_flag=""
if [ "${HALEAKALA_SYSTEM_SITE:-0}" = 1 ]; then
    site_flag="--system-site-packages"
    if [ -f "$venv/pyvenv.cfg" ] && ! grep -qE 'include-system-site-packages *= *true' "$venv/pyvenv.cfg"; then
        echo "$venv was made without --system-site-packages, which the kit needs on a Pi:" \
            "remove it (rm -rf $venv) and run again" >&2
        return 1 2>/dev/null || exit 1
    fi
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "setting up $venv (first run only)..." >&2
    "$py" -m venv $site_flag "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip >&2
fi
stamp="$venv/.installed-$extras"
if [ ! -f "$stamp" ] || [ "$here/pyproject.toml" -nt "$stamp" ]; then
    echo "installing haleakala[$extras] into $venv..." >&2
    "$venv/bin/python" -m pip install --quiet -e "$here[$extras]" >&2
    touch "$stamp"
fi
# The message catalogs: .po files in git, their compiled .mo built here (only those older
# than their .po), so a fresh clone's ./run and ./test speak German and French too.
"$venv/bin/python" -m haleakala.i18n.catalogs compile --if-stale >&2
# Debian tools some tests and commands want (a virtual display, graphviz for WireViz,
# headless Chromium for the live view's browser test).
# Installed only where we may (root); elsewhere the tests that need them say so and skip.
want_deb() {
    local cmd="$1" pkg="$2"
    command -v "$cmd" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing Debian package $pkg..." >&2
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg") >&2 \
            || echo "could not install $pkg; tests needing $cmd will skip" >&2
    fi
}
