"""The LD_PRELOAD builder (mspti_base.preload): order, duplicates, the caller's entries kept."""

from __future__ import annotations

from pathlib import Path

from mspti_base.preload import is_sanitizer_runtime, preload_parts, preload_value


def test_parts_split_on_colons_and_blanks() -> None:
    assert preload_parts(" /a.so:/b.so  /c.so::") == ["/a.so", "/b.so", "/c.so"]
    assert preload_parts("") == []


def test_first_goes_ahead_of_the_existing_entries_which_are_kept() -> None:
    assert preload_value("/x/libfoo.so /y/libbar.so", first=["/m/libmspti.so"]) == (
        "/m/libmspti.so:/x/libfoo.so:/y/libbar.so"
    )


def test_last_goes_after_the_existing_entries() -> None:
    assert preload_value("/x/libfoo.so", last=["/m/libmspti.so"], separator=" ") == (
        "/x/libfoo.so /m/libmspti.so"
    )


def test_each_entry_appears_once() -> None:
    value = preload_value("/m/libmspti.so:/x/libfoo.so:/x/libfoo.so", first=["/m/libmspti.so"])
    assert value == "/m/libmspti.so:/x/libfoo.so"
    assert preload_value("/x/libfoo.so", last=["/x/libfoo.so"]) == "/x/libfoo.so"


def test_sanitizer_runtimes_stay_in_front() -> None:
    existing = "/x/libfoo.so:/usr/lib/libasan.so.8 /usr/lib/libclang_rt.tsan-x86_64.so"
    assert preload_value(existing, first=["/m/libmspti.so"]).split(":") == [
        "/usr/lib/libasan.so.8",
        "/usr/lib/libclang_rt.tsan-x86_64.so",
        "/m/libmspti.so",
        "/x/libfoo.so",
    ]


def test_drop_leaves_out_matching_existing_entries_only() -> None:
    def other_mspti(part: str) -> bool:
        return Path(part).name == "libmspti.so"

    value = preload_value("/old/libmspti.so:/x/libfoo.so", last=["/new/libmspti.so"], drop=other_mspti)
    assert value == "/x/libfoo.so:/new/libmspti.so"


def test_sanitizer_runtime_names() -> None:
    assert is_sanitizer_runtime("/usr/lib/x86_64-linux-gnu/libubsan.so.1")
    assert is_sanitizer_runtime("libhwasan.so")
    assert not is_sanitizer_runtime("/opt/libasanity.so")
    assert not is_sanitizer_runtime("/m/libmspti.so")


def test_the_test_launchers_take_the_runtime_out_whatever_the_separator(monkeypatch) -> None:
    # tests/support/native.py builds its LD_PRELOAD values with the same builder: a colon-separated
    # value (as the dynamic loader also reads it) loses the sanitizer runtime for shells and tools,
    # and gets it once, in front, for child interpreters.
    from support.native import python_subprocess_env, without_sanitizer_runtime

    monkeypatch.setenv("NPU_SIM_SANITIZER_PRELOAD", "/rt/libtsan.so.2")
    shell = without_sanitizer_runtime({"LD_PRELOAD": "/rt/libtsan.so.2:/m/libmspti.so"})
    assert shell["LD_PRELOAD"] == "/m/libmspti.so"
    assert "LD_PRELOAD" not in without_sanitizer_runtime({"LD_PRELOAD": "/rt/libtsan.so.2:"})
    child = python_subprocess_env({"LD_PRELOAD": "/m/libmspti.so:/rt/libtsan.so.2"})
    assert child["LD_PRELOAD"] == "/rt/libtsan.so.2 /m/libmspti.so"
