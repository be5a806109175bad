#!/usr/bin/env bash
# Build dreamd's wheel and its Debian package.
#
#   packaging/build-deb.sh [OUT_DIR]            (default: dist/ in the source tree)
#
# The package is a self-contained virtual environment in /opt/dreamd (dreamd and every
# dependency, on Debian's own python3.X), /usr/bin/dreamd, the system unit
# /usr/lib/systemd/system/dreamd.service (systemd/dreamd.service), the man page dreamd(1) (built
# from the argument parser by argparse-manpage, which is fetched into the build directory only)
# and maintainer scripts that add the `dreamd` system user (packaging/debian/). The version
# comes from dreamd/__init__.py.
#
# The venv is relocatable: its console scripts find their interpreter next to themselves (the
# /bin/sh trampoline of `uv venv --relocatable`), so the unpacked tree runs from anywhere, e.g.
# after `dpkg -x`. Nothing is compiled into the package; postinst byte-compiles, prerm cleans.
#
# Needs dpkg-deb, Debian's python3 ($TARGET_PYTHON, default /usr/bin/python3; the package
# depends on exactly its python3.X) and a Python with pip to build with ($PYTHON, default
# python3). Dependencies come from pip's configured index; $EXTRAS picks the optional ones
# (default "all": the Discord and Telegram adapters; "" for none).
set -euo pipefail

here=$(cd -- "$(dirname -- "$0")" && pwd)
source_dir=$(cd -- "$here/.." && pwd)
out=${1:-$source_dir/dist}
mkdir -p -- "$out"
out=$(cd -- "$out" && pwd)
python=${PYTHON:-python3}
target_python=${TARGET_PYTHON:-/usr/bin/python3}
extras=${EXTRAS-all}
prefix=/opt/dreamd

version=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$source_dir/dreamd/__init__.py")
[ -n "$version" ] || { echo "build-deb: no __version__ in dreamd/__init__.py" >&2; exit 1; }
# PEP 440 pre-releases sort before the release in Debian only with a tilde: 1.0rc1 -> 1.0~rc1.
deb_version="$(printf '%s' "$version" | sed -E 's/\.?(a|b|rc|dev)([0-9]+)$/~\1\2/')-1"
pyver=$("$target_python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
interpreter="$(dirname -- "$target_python")/python$pyver"
arch=$(dpkg --print-architecture)

work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
stage="$work/root"
venv="$stage$prefix"

# 1. The wheel, the same one PyPI gets.
"$python" -m pip wheel --quiet --no-deps --wheel-dir "$out" "$source_dir"
wheel="$out/dreamd-$version-py3-none-any.whl"
[ -f "$wheel" ] || { echo "build-deb: pip wheel made no $wheel" >&2; exit 1; }

# 2. The venv on Debian's interpreter, with no pip of its own; dependencies come from the index.
"$interpreter" -m venv --without-pip "$venv"
"$python" -m pip --python "$venv/bin/python" install --quiet --no-compile \
    --root-user-action=ignore --disable-pip-version-check "$wheel${extras:+[$extras]}"

# 3. Relocatable: replace the absolute build-path shebangs of the console scripts.
trampoline="#!/bin/sh
'''exec' \"\$(dirname -- \"\$(realpath -- \"\$0\")\")\"/'python' \"\$0\" \"\$@\"
' '''"
for script in "$venv"/bin/*; do
    if [ ! -f "$script" ] || [ -L "$script" ]; then continue; fi
    first=$(head -n 1 -- "$script")
    if [ "$first" = "#!$venv/bin/python" ]; then
        skip=2                                     # the shebang line
    elif [ "$first" = "#!/bin/sh" ] && sed -n 2p -- "$script" | grep -qF "$venv/bin/python"; then
        skip=4                                     # pip's own trampoline for long paths
    else
        continue
    fi
    { printf '%s\n' "$trampoline"; tail -n "+$skip" -- "$script"; } > "$script.new"
    chmod 755 -- "$script.new"
    mv -- "$script.new" "$script"
done
rm -f -- "$venv"/bin/activate* "$venv"/bin/Activate.ps1
sed -i "s|^command = .*|command = $interpreter -m venv $prefix|" "$venv/pyvenv.cfg"
if leftover=$(grep -rlF -- "$stage" "$venv"); then
    echo "build-deb: the build path is still written in:" >&2
    echo "$leftover" >&2
    exit 1
fi

# 4. The man page, from the parser the installed dreamd runs (so it never drifts from --help).
"$python" -m pip install --quiet --no-deps --disable-pip-version-check --target "$work/manpage" \
    "argparse-manpage>=4.5"
mkdir -p -- "$stage/usr/share/man/man1"
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$work/manpage" "$venv/bin/python" -c \
    'import sys; from argparse_manpage.cli import main; sys.exit(main())' \
    --module dreamd.cli.main --function build_parser --prog dreamd --project-name dreamd \
    --version "$version" --manual-section 1 --manual-title "dreamd manual" \
    --description "background memory consolidation for AI-agent workspaces" \
    --output "$work/dreamd.1"
gzip -9n -c -- "$work/dreamd.1" > "$stage/usr/share/man/man1/dreamd.1.gz"

# 5. The rest of the tree and the package metadata.
install -D -m 644 -- "$source_dir/systemd/dreamd.service" "$stage/usr/lib/systemd/system/dreamd.service"
mkdir -p -- "$stage/usr/bin"
ln -s -- "$prefix/bin/dreamd" "$stage/usr/bin/dreamd"
mkdir -p -- "$stage/DEBIAN"
install -m 755 -- "$here/debian/postinst" "$here/debian/prerm" "$here/debian/postrm" "$stage/DEBIAN/"
chmod -R u+rwX,go+rX,go-w -- "$stage"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: dreamd
Version: $deb_version
Architecture: $arch
Maintainer: dreamd developers <dreamd@example.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN -- "$stage" | cut -f1)
Depends: python$pyver, adduser
Section: utils
Priority: optional
Homepage: https://example.invalid/dreamd
Description: background memory consolidation for AI-agent Markdown workspaces
 dreamd ("dreaming") turns strong short-term signals in an agent's daily notes
 into durable memory in MEMORY.md, explainably and reviewably.
 .
 This package holds a self-contained virtual environment in /opt/dreamd, the
 command /usr/bin/dreamd, the systemd unit dreamd.service (not enabled) and the
 system user dreamd.
CONTROL

deb="$out/dreamd_${deb_version}_$arch.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$wheel"
echo "$deb"
