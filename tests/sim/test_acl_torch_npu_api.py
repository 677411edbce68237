"""The ACL functions torch_npu calls besides the runtime core (tensor descriptions, operator
attributes, compile options, start-up options, versions) and the not-supported answers of
libacl_op_compiler, libruntime and libacl_tdt_channel, called through ctypes in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from sim_runtime.toolkit_layout import cann_version
from support.native import NativeTree

ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_FEATURE_UNSUPPORTED = 200006
ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000


def run(native: NativeTree, body: str) -> tuple[dict[str, object], str]:
    code = "import ctypes, json\n"
    code += "from ctypes import byref, c_char_p, c_int, c_int32, c_int64, c_uint32, c_uint64, c_void_p\n"
    code += f'lib64 = "{native.sim_lib64}"\n' + textwrap.dedent(body)
    result = subprocess.run(
        [sys.executable, "-c", code],
        env=native.env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout.splitlines()[-1]), result.stderr


def test_tensor_descriptions_and_data_buffers_keep_what_was_set(native: NativeTree) -> None:
    out, _ = run(
        native,
        """
        acl = ctypes.CDLL(lib64 + "/libascendcl.so")
        acl.aclCreateTensorDesc.restype = c_void_p
        acl.aclCreateDataBuffer.restype = c_void_p
        acl.aclGetTensorDescNumDims.restype = ctypes.c_size_t
        acl.aclGetTensorDescName.restype = c_char_p
        acl.aclGetTensorDescName.argtypes = [c_void_p]
        dims = (c_int64 * 2)(2, 3)
        desc = c_void_p(acl.aclCreateTensorDesc(0, 2, dims, 2))  # float32, ND
        r = {"type": acl.aclGetTensorDescType(desc), "format": acl.aclGetTensorDescFormat(desc),
             "ndims": acl.aclGetTensorDescNumDims(desc)}
        dim = c_int64(0)
        r["dim1"] = [acl.aclGetTensorDescDimV2(desc, ctypes.c_size_t(1), byref(dim)), dim.value]
        r["dim_out_of_range"] = acl.aclGetTensorDescDimV2(desc, ctypes.c_size_t(2), byref(dim))
        acl.aclSetTensorDescName(desc, b"x")
        r["name"] = acl.aclGetTensorDescName(desc).decode()
        r["set_format"] = acl.aclSetTensorFormat(desc, 0)
        r["format_after"] = acl.aclGetTensorDescFormat(desc)
        shape = (c_int64 * 3)(4, 5, 6)
        r["set_shape"] = acl.aclSetTensorShape(desc, 3, shape)
        r["ndims_after"] = acl.aclGetTensorDescNumDims(desc)
        r["placement_host"] = acl.aclSetTensorPlaceMent(desc, 1)
        r["placement_bad"] = acl.aclSetTensorPlaceMent(desc, 7)
        r["negative_dims"] = acl.aclCreateTensorDesc(0, -1, None, 2)
        acl.aclDestroyTensorDesc(desc)
        data = ctypes.create_string_buffer(16)
        buf = c_void_p(acl.aclCreateDataBuffer(data, ctypes.c_size_t(16)))
        r["buffer"] = bool(buf.value)
        r["null_data_with_size"] = acl.aclCreateDataBuffer(None, ctypes.c_size_t(8))
        r["destroy_buffer"] = acl.aclDestroyDataBuffer(buf)
        r["destroy_null"] = acl.aclDestroyDataBuffer(None)
        print(json.dumps(r))
        """,
    )
    assert out == {
        "type": 0, "format": 2, "ndims": 2, "dim1": [0, 3], "dim_out_of_range": ACL_ERROR_INVALID_PARAM,
        "name": "x", "set_format": 0, "format_after": 0, "set_shape": 0, "ndims_after": 3,
        "placement_host": 0, "placement_bad": ACL_ERROR_INVALID_PARAM, "negative_dims": None,
        "buffer": True, "null_data_with_size": None, "destroy_buffer": 0,
        "destroy_null": ACL_ERROR_INVALID_PARAM,
    }  # fmt: skip


def test_operator_attributes_validate_their_arguments(native: NativeTree) -> None:
    out, _ = run(
        native,
        """
        acl = ctypes.CDLL(lib64 + "/libascendcl.so")
        acl.aclopCreateAttr.restype = c_void_p
        attr = c_void_p(acl.aclopCreateAttr())
        ints = (c_int64 * 2)(1, 2)
        lists = (ctypes.POINTER(c_int64) * 2)(ints, ints)
        counts = (c_int * 2)(2, 1)
        r = {
            "bool": acl.aclopSetAttrBool(attr, b"keep", ctypes.c_uint8(1)),
            "int": acl.aclopSetAttrInt(attr, b"axis", c_int64(-1)),
            "float": acl.aclopSetAttrFloat(attr, b"eps", ctypes.c_float(1e-5)),
            "string": acl.aclopSetAttrString(attr, b"mode", b"sum"),
            "null_string": acl.aclopSetAttrString(attr, b"mode", None),
            "dtype": acl.aclopSetAttrDataType(attr, b"dst", 1),
            "list_int": acl.aclopSetAttrListInt(attr, b"perm", 2, ints),
            "list_negative": acl.aclopSetAttrListInt(attr, b"perm", -1, ints),
            "list_list": acl.aclopSetAttrListListInt(attr, b"pads", 2, counts, lists),
            "null_attr": acl.aclopSetAttrInt(None, b"axis", c_int64(0)),
            "null_name": acl.aclopSetAttrInt(attr, None, c_int64(0)),
        }
        acl.aclopDestroyAttr(attr)
        print(json.dumps(r))
        """,
    )
    bad = ACL_ERROR_INVALID_PARAM
    assert out == {
        "bool": 0, "int": 0, "float": 0, "string": 0, "null_string": bad, "dtype": 0, "list_int": 0,
        "list_negative": bad, "list_list": 0, "null_attr": bad, "null_name": bad,
    }  # fmt: skip


def test_compile_options_are_kept_and_operator_compilation_is_unsupported(native: NativeTree) -> None:
    out, stderr = run(
        native,
        """
        oc = ctypes.CDLL(lib64 + "/libacl_op_compiler.so")
        oc.aclGetCompileoptSize.restype = ctypes.c_size_t
        r = {"unset_size": oc.aclGetCompileoptSize(10)}
        r["set"] = oc.aclSetCompileopt(10, b"disable")  # ACL_OP_JIT_COMPILE
        size = oc.aclGetCompileoptSize(10)
        value = ctypes.create_string_buffer(size)
        r["get"] = [oc.aclGetCompileopt(10, value, ctypes.c_size_t(size)), value.value.decode(), size]
        r["short_buffer"] = oc.aclGetCompileopt(10, value, ctypes.c_size_t(3))
        r["bad_option"] = oc.aclSetCompileopt(99, b"x")
        args = [2, None, None, 1, None, None, None, 0, 0, None, None]
        r["execute"] = [oc.aclopCompileAndExecute(b"Add", *args) for _ in range(2)]
        r["execute_v2"] = oc.aclopCompileAndExecuteV2(b"Mul", *args)
        print(json.dumps(r))
        """,
    )
    assert out == {
        "unset_size": 1, "set": 0, "get": [0, "disable", 8], "short_buffer": ACL_ERROR_INVALID_PARAM,
        "bad_option": ACL_ERROR_INVALID_PARAM, "execute": [ACL_ERROR_FEATURE_UNSUPPORTED] * 2,
        "execute_v2": ACL_ERROR_FEATURE_UNSUPPORTED,
    }  # fmt: skip
    # One line for the first unsupported operator, naming it.
    assert stderr.count("is not supported by the simulator") == 1
    assert 'aclopCompileAndExecute("Add")' in stderr


def test_start_up_options_and_versions(native: NativeTree) -> None:
    out, _ = run(
        native,
        """
        acl = ctypes.CDLL(lib64 + "/libascendcl.so")
        r = {"init": acl.aclInit(None), "set_device": acl.aclrtSetDevice(0)}
        class Version(ctypes.Structure):
            _fields_ = [("version", ctypes.c_char * 128)] + [(n, ctypes.c_char * 64) for n in
                        ("major", "minor", "release", "patch")] + [("reserved", ctypes.c_char * 128)]
        v = Version()
        r["cann"] = [acl.aclsysGetCANNVersion(0, byref(v)), v.version.decode(), v.major.decode()]
        r["cann_bad_package"] = acl.aclsysGetCANNVersion(42, byref(v))
        text = ctypes.create_string_buffer(128)
        r["version_str"] = [acl.aclsysGetVersionStr(b"runtime", text), text.value.decode()]
        value = c_int32(-1)
        r["bf16"] = [acl.aclGetCannAttribute(1, byref(value)), value.value]
        r["sat_mode"] = [acl.aclrtSetDeviceSatMode(1), acl.aclrtSetDeviceSatMode(5)]
        mode = c_int32(-1)
        r["sat_mode_get"] = [acl.aclrtGetDeviceSatMode(byref(mode)), mode.value]
        param = c_int64(-1)
        r["param"] = [acl.aclrtCtxSetSysParamOpt(0, c_int64(1)), acl.aclrtGetSysParamOpt(0, byref(param))]
        r["param"].append(param.value)
        r["param_bad"] = acl.aclrtSetSysParamOpt(9, c_int64(1))
        actual = c_uint64(0)
        r["timeout"] = [acl.aclrtSetOpExecuteTimeOutV2(c_uint64(5000), byref(actual)), actual.value]
        stream = c_void_p()
        acl.aclrtCreateStream(byref(stream))
        flag = c_uint32(9)
        r["overflow"] = [acl.aclrtSetStreamOverflowSwitch(stream, c_uint32(1)),
                         acl.aclrtGetStreamOverflowSwitch(stream, byref(flag)), flag.value]
        r["failure_mode"] = [acl.aclrtSetStreamFailureMode(stream, c_uint64(1)),
                             acl.aclrtSetStreamFailureMode(stream, c_uint64(3))]
        r["last_error"] = [acl.aclrtPeekAtLastError(0), acl.aclrtGetLastError(1)]
        r["sync"] = acl.aclrtSynchronizeDeviceWithTimeout(-1)
        r["destroy_force"] = acl.aclrtDestroyStreamForce(stream)
        can = c_int32(-1)
        r["peer"] = [acl.aclrtDeviceCanAccessPeer(byref(can), 0, 1), can.value,
                     acl.aclrtDeviceCanAccessPeer(byref(can), 0, 0), acl.aclrtDeviceEnablePeerAccess(1, 0)]
        pid = c_int32(0)
        import os
        r["tgid"] = [acl.aclrtDeviceGetBareTgid(byref(pid)), pid.value == os.getpid()]
        r["process_report"] = acl.aclrtProcessReport(100)
        r["function_addr"] = acl.aclrtGetFunctionAddr(c_void_p(1), byref(c_void_p()), byref(c_void_p()))
        r["dump"] = acl.aclmdlInitDump()
        acl.aclGetRecentErrMsg.restype = c_char_p
        r["err_msg"] = acl.aclGetRecentErrMsg()  # NULL: no message, as CANN answers when it has none
        acl.aclAppLog(2, b"fn", b"file.c", 7, b"value %d", 42)
        print(json.dumps(r))
        """,
    )
    bad = ACL_ERROR_INVALID_PARAM
    # The version the toolkit states (toolkit_layout.toml's cann_version, which the build passes in).
    version = cann_version()
    assert version == "8.5.0"
    assert out == {
        "init": 0, "set_device": 0, "cann": [0, version, version.split(".")[0]], "cann_bad_package": bad,
        "version_str": [0, version], "bf16": [0, 1], "sat_mode": [0, bad], "sat_mode_get": [0, 1],
        "param": [0, 0, 1], "param_bad": bad, "timeout": [0, 5000], "overflow": [0, 0, 1],
        "failure_mode": [0, bad], "last_error": [0, 0], "sync": 0, "destroy_force": 0,
        "peer": [0, 1, bad, 0], "tgid": [0, True], "process_report": ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        "function_addr": ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "dump": ACL_ERROR_FEATURE_UNSUPPORTED,
        "err_msg": None,
    }  # fmt: skip


def test_legacy_runtime_and_tdt_channels_answer_not_supported(native: NativeTree) -> None:
    out, stderr = run(
        native,
        """
        rt = ctypes.CDLL(lib64 + "/libruntime.so")
        tdt = ctypes.CDLL(lib64 + "/libacl_tdt_channel.so")
        tdt.acltdtCreateChannel.restype = c_void_p
        handle = c_void_p()
        r = {"register": [rt.rtDevBinaryRegister(None, byref(handle)) for _ in range(2)],
             "launch": rt.rtKernelLaunch(None, 1, None, 0, None, None),
             "c2c": rt.rtGetC2cCtrlAddr(None, None),
             "channel": tdt.acltdtCreateChannel(0, b"queue"),
             "send": tdt.acltdtSendTensor(None, None, -1)}
        print(json.dumps(r))
        """,
    )
    rt = ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert out == {
        "register": [rt, rt],
        "launch": rt,
        "c2c": rt,
        "channel": None,
        "send": ACL_ERROR_FEATURE_UNSUPPORTED,
    }
    assert stderr.count("rtDevBinaryRegister is not supported") == 1  # one line per function and process
    assert "acltdtCreateChannel is not supported by the simulator" in stderr


def test_primary_context_state_follows_set_and_reset_device(native: NativeTree) -> None:
    # torch_npu's compatible implementation (TORCH_NPU_USE_COMPATIBLE_IMPL=1) asks it at start-up.
    out, _ = run(
        native,
        """
        acl = ctypes.CDLL(lib64 + "/libascendcl.so")
        active = c_int32(-1)
        state = lambda dev: [acl.aclrtGetPrimaryCtxState(dev, None, byref(active)), active.value]
        r = {"init": acl.aclInit(None), "before": state(0)}
        acl.aclrtSetDevice(0)
        acl.aclrtSetDevice(0)
        r["set_twice"] = state(0)
        r["other_device"] = state(1)
        acl.aclrtResetDevice(0)
        r["one_reset"] = state(0)
        acl.aclrtResetDevice(0)
        r["both_reset"] = state(0)
        ctx = c_void_p()
        acl.aclrtCreateContext(byref(ctx), 0)  # a context of its own is not the primary one
        r["own_context"] = state(0)
        flags = c_uint32(0)
        r["flags_not_null"] = acl.aclrtGetPrimaryCtxState(0, byref(flags), byref(active))
        r["active_null"] = acl.aclrtGetPrimaryCtxState(0, None, None)
        r["bad_device"] = acl.aclrtGetPrimaryCtxState(99, None, byref(active))
        print(json.dumps(r))
        """,
    )
    assert out == {
        "init": 0, "before": [0, 0], "set_twice": [0, 1], "other_device": [0, 0], "one_reset": [0, 1],
        "both_reset": [0, 0], "own_context": [0, 0], "flags_not_null": ACL_ERROR_INVALID_PARAM,
        "active_null": ACL_ERROR_INVALID_PARAM, "bad_device": 107001,
    }  # fmt: skip
