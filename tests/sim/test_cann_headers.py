"""The shipped headers against the manifest of CANN's public header facts (tools/cann_manifest).

The manifest (sim_runtime/data/cann_manifest.json) is generated from the public repositories' headers
only; these tests need neither those repositories nor libclang, only g++.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "tools" / "cann_manifest"
TOOLKIT_DOC = REPO / "docs" / "toolkit.md"

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"cann_manifest_{name}", TOOLS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def check() -> Iterator[ModuleType]:
    module = _load("check")
    yield module
    del sys.modules[module.__name__]


@pytest.fixture(scope="module")
def spellings() -> Iterator[ModuleType]:
    module = _load("spellings")
    yield module
    del sys.modules[module.__name__]


@pytest.fixture(scope="module")
def shipped(check: ModuleType):  # the checker's Report
    return check.run()


def test_shipped_headers_declare_what_cann_declares_identically(shipped, check: ModuleType) -> None:
    assert not shipped.fatal, shipped.fatal
    assert shipped.failures == {}, "\n".join(
        f"{item} ({shipped.headers[item]}): {'; '.join(problems)}"
        for item, problems in shipped.failures.items()
    )
    # The check covered the surface: the items named by the issue that pinned it are compared, not absent.
    for item in (
        "record:aclCANNPackageVersion",
        "record:aclrtPhysicalMemProp",
        "record:aclrtMallocAttrValue",
        "enumerator:ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT",
        "enumerator:MSTX_API_CORE_MEM_SIZE",
        "typedef:mstxGetModuleFuncTableFunc",
        "function:aclrtMemExportToShareableHandle",
        "typedef:aclopEngineType",
        "typedef:aclopCompileType",
        "function:aclnnReluGetWorkspaceSize",
        "function:aclnnForeachAddListGetWorkspaceSize",
        "record:hixl::MemDesc",
        "include:securec.h",
        "include:hccl/hccl.h",
        "include:mstx/mstx_detail/mstx_types.h",
        # the image, search and order-statistics operators' headers (hicann/ops-cv, ops-math, ops-nn)
        "function:aclnnUpsampleNearest2dGetWorkspaceSize",
        "function:aclnnGridSampler2DBackwardGetWorkspaceSize",
        "function:aclnnIm2colBackwardGetWorkspaceSize",
        "function:aclnnAminmaxGetWorkspaceSize",
        "function:aclnnSearchSortedsGetWorkspaceSize",
        "function:aclnnMedianDimGetWorkspaceSize",
        "function:aclnnUniqueConsecutiveGetWorkspaceSize",
        "include:aclnnop/aclnn_upsample_bilinear_2d_backward.h",
    ):
        assert item in shipped.identical, item
    assert len(shipped.identical) > 1000


def test_allowlist_holds_only_live_differences(shipped, check: ModuleType) -> None:
    allowed = check.load_allowlist()
    assert set(allowed) == set(shipped.allowed), "an allow-list entry no longer matches a difference"


def test_check_fails_on_altered_copies_of_shipped_headers(check: ModuleType, tmp_path: Path) -> None:
    """A layout, a value and an include graph, each altered in a copy of the shipped headers."""
    include = tmp_path / "include"
    shutil.copytree(REPO / "csrc" / "sim" / "include", include)
    acl_rt = include / "acl" / "acl_rt.h"
    text = acl_rt.read_text()
    altered = text.replace(
        "char reserved[ACL_PKG_VERSION_MAX_SIZE];\n} aclCANNPackageVersion;",
        "char reserved[ACL_PKG_VERSION_PARTS_MAX_SIZE];\n} aclCANNPackageVersion;",
    ).replace("ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1", "ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x0")
    assert altered.count("ACL_PKG_VERSION_PARTS_MAX_SIZE];\n} aclCANNPackageVersion") == 1
    assert "ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x0" in altered
    acl_rt.write_text(altered)
    # securec.h makes <stdlib.h> visible through securectype.h, as CANN's does: both lose it.
    securectype = include / "securectype.h"
    text = securectype.read_text()
    assert "#include <stdlib.h>\n" in text
    securectype.write_text(text.replace("#include <stdlib.h>\n", ""))

    report = check.run(dirs=(include, REPO / "csrc" / "mspti" / "include"))
    assert set(report.failures) == {
        "record:aclCANNPackageVersion",
        "enumerator:ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT",
        "include:securec.h",
        "include:securectype.h",
    }
    assert any("sizeof 512" in p for p in report.failures["record:aclCANNPackageVersion"])
    assert "stdlib.h" in report.failures["include:securec.h"][0]
    assert "stdlib.h" in report.failures["include:securectype.h"][0]


def test_absent_items_are_listed_in_docs(shipped, check: ModuleType) -> None:
    manifest = json.loads(check.MANIFEST.read_text())
    table = check.absent_markdown(manifest, shipped, check.our_headers(list(check.SHIPPED)))
    doc = TOOLKIT_DOC.read_text()
    start, end = doc.find(check.DOC_BEGIN), doc.find(check.DOC_END)
    assert start >= 0 and end > start, f"{TOOLKIT_DOC} has no generated table of absent items"
    assert doc[start : end + len(check.DOC_END)] + "\n" == table, (
        "docs/toolkit.md's table of absent CANN items is out of date: "
        "python tools/cann_manifest/check.py --absent-md"
    )


def test_every_shipped_operator_header_is_checked_or_named_unchecked(check: ModuleType) -> None:
    manifest = json.loads(check.MANIFEST.read_text())
    shipped = {name for name in check.our_headers(list(check.SHIPPED)) if name.startswith("aclnnop/")}
    assert len(shipped) > 100
    doc = TOOLKIT_DOC.read_text()
    section = doc[doc.index("## The CANN release it mirrors") : doc.index("### The manifest and its check")]
    unchecked = sorted(shipped - set(manifest["headers"]))
    assert [h for h in unchecked if f"`{h.removeprefix('aclnnop/')}`" not in section] == [], (
        "map these in tools/cann_manifest/sources.toml, or name them in docs/toolkit.md as unchecked"
    )
    # and the list names only headers that really are unchecked
    named = set(re.findall(r"`(aclnn_\w+\.h)`", section))
    assert sorted(f"aclnnop/{h}" for h in named if f"aclnnop/{h}" in manifest["headers"]) == []


def test_manifest_names_the_release_and_every_repository_commit(check: ModuleType) -> None:
    manifest = json.loads(check.MANIFEST.read_text())
    assert manifest["release"]
    names = {r["name"] for r in manifest["repositories"]}
    assert {
        "hicann/runtime",
        "hicann/ge",
        "hicann/hccl",
        "hicann/hcomm",
        "hicann/hixl",
        "hicann/metadef",
    } <= names
    assert {"hicann/opbase", "Ascend/mstx", "Ascend/mspti", "openeuler-mirror/libboundscheck"} <= names
    assert all(re.fullmatch(r"[0-9a-f]{40}", r["commit"]) for r in manifest["repositories"])
    doc = TOOLKIT_DOC.read_text()
    assert manifest["release"] in doc
    for repo in manifest["repositories"]:
        assert f"{repo['name']}" in doc and repo["commit"] in doc, repo["name"]


def test_mspti_and_the_calibration_runner_use_only_cann_spellings(spellings: ModuleType) -> None:
    findings, count = spellings.scan()
    assert count > 50
    assert findings == [], "\n".join(f"{f.path}:{f.line}: {f.what}" for f in findings)


def test_spelling_check_finds_our_own_names_and_forbidden_includes(
    spellings: ModuleType, tmp_path: Path
) -> None:
    source = tmp_path / "probe.cpp"
    source.write_text(
        '#include "mstx/mstx_detail/mstx_types.h"\n'
        "// aclrtNotACannName in a comment is not code\n"
        'const char* s = "HCCL_NOT_A_NAME";\n'
        "int n = HCCL_COMM_NAME_MAX_LENGTH + COMM_NAME_MAX_LENGTH;\n"
        "aclError e = aclrtSetDevice(0);\n"
    )
    findings, _ = spellings.scan([source])
    what = sorted((f.line, f.what.split(" ")[0]) for f in findings)
    assert what == [(1, "includes"), (4, "HCCL_COMM_NAME_MAX_LENGTH")]


def test_mspti_exports_its_interposers_itself() -> None:
    """CANN's ACL_FUNC_VISIBILITY is empty outside CANN's own build, so msPTI built against CANN's
    headers exports its aclrt*/Hccl* wrappers only if its sources say so themselves."""
    wrappers = [
        p
        for p in sorted((REPO / "csrc" / "mspti" / "src").rglob("*.cpp"))
        if 'extern "C" {' in (text := p.read_text()) and "MSPTI_API" not in text
    ]
    assert len(wrappers) >= 5
    for path in wrappers:
        text = path.read_text()
        assert "#pragma GCC visibility push(default)" in text, path.relative_to(REPO)
