# SPDX-License-Identifier: ISC
"""
buildsys.py -- a PEP 517 build backend for the sudokud package, with
the standard library only, so that pip can build and install it with no
network and no build dependency: a wheel is a zip of the package, its
metadata and a RECORD of hashes (PEP 427), an sdist a tar of this
folder.  pyproject.toml names it with backend-path = ["."].  The
version is the package's own __version__ (sudokud/__init__.py).
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

NAME = "sudokud"
HERE = os.path.dirname(os.path.abspath(__file__))


def _version():
    with open(os.path.join(HERE, NAME, "__init__.py"), encoding="utf-8") as f:
        return re.search(r'^__version__ = "([^"]+)"$', f.read(), re.M).group(1)


VERSION = _version()
TAG = "py3-none-any"
DIST = "%s-%s" % (NAME, VERSION)


def _metadata():
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n"
            "Summary: Client for sudokud, the Sudoku-solving service\n"
            "License: ISC\nRequires-Python: >=3.9\n"
            "Description-Content-Type: text/markdown\n\n%s"
            % (NAME, VERSION, readme))


def _files():
    """The package's files: (path in the wheel, bytes)."""
    out = []
    pkg = os.path.join(HERE, NAME)
    for name in sorted(os.listdir(pkg)):
        if name.endswith(".py") or name == "py.typed":
            with open(os.path.join(pkg, name), "rb") as f:
                out.append(("%s/%s" % (NAME, name), f.read()))
    return out


def _hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _wheel(directory, files):
    info = "%s.dist-info" % DIST
    files = files + [
        ("%s/METADATA" % info, _metadata().encode("utf-8")),
        ("%s/WHEEL" % info, ("Wheel-Version: 1.0\nGenerator: buildsys\n"
                             "Root-Is-Purelib: true\nTag: %s\n"
                             % TAG).encode()),
    ]
    record = "".join("%s,%s,%d\n" % (p, _hash(d), len(d)) for p, d in files)
    record += "%s/RECORD,,\n" % info
    name = "%s-%s.whl" % (DIST, TAG)
    with zipfile.ZipFile(os.path.join(directory, name), "w",
                         zipfile.ZIP_DEFLATED) as z:
        for path, data in files:
            z.writestr(path, data)
        z.writestr("%s/RECORD" % info, record)
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    return _wheel(wheel_directory, _files())


def build_editable(wheel_directory, config_settings=None,
                   metadata_directory=None):
    """A wheel that points at this folder (a .pth file)."""
    return _wheel(wheel_directory,
                  [("%s.pth" % NAME, (HERE + "\n").encode())])


def build_sdist(sdist_directory, config_settings=None):
    name = "%s.tar.gz" % DIST
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as t:
        for rel in ("pyproject.toml", "buildsys.py", "README.md"):
            t.add(os.path.join(HERE, rel), "%s/%s" % (DIST, rel))
        for path, data in _files():
            ti = tarfile.TarInfo("%s/%s" % (DIST, path))
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
        meta = _metadata().encode("utf-8")
        ti = tarfile.TarInfo("%s/PKG-INFO" % DIST)
        ti.size = len(meta)
        t.addfile(ti, io.BytesIO(meta))
    return name
