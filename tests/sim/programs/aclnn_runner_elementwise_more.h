// The runner's element-wise operators of op_trigonometric, op_division, op_exponential,
// op_bitwise_or_xor and op_shrink (included by aclnn_runner.cpp after its Spec, Phase1 and
// Phase2), their arguments by parameter name as in aclnn_runner_by_name.h.
#pragma once

#include <string>

#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_atan2.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_exp2.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_frac.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_logaddexp2.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_softshrink_backward.h"
#include "aclnnop/aclnn_tan.h"

namespace {

bool select_elementwise_more(const Spec& p, Phase1& first, Phase2& second) {
    const std::string& op = p.op;
    if (op == "Tan") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnTanGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnTan;
        return true;
    }
    if (op == "InplaceTan") {
        first = [&p](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceTanGetWorkspaceSize(p.t("selfRef"), w, e); };
        second = aclnnInplaceTan;
        return true;
    }
    if (op == "Asin") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnAsinGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnAsin;
        return true;
    }
    if (op == "InplaceAsin") {
        first = [&p](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceAsinGetWorkspaceSize(p.t("selfRef"), w, e); };
        second = aclnnInplaceAsin;
        return true;
    }
    if (op == "Acos") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnAcosGetWorkspaceSize(p.t("input"), p.t("out"), w, e);
        };
        second = aclnnAcos;
        return true;
    }
    if (op == "InplaceAcos") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceAcosGetWorkspaceSize(p.t("inputRef"), w, e);
        };
        second = aclnnInplaceAcos;
        return true;
    }
    if (op == "Atan") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnAtanGetWorkspaceSize(p.t("input"), p.t("out"), w, e);
        };
        second = aclnnAtan;
        return true;
    }
    if (op == "InplaceAtan") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceAtanGetWorkspaceSize(p.t("inputRef"), w, e);
        };
        second = aclnnInplaceAtan;
        return true;
    }
    if (op == "Sinh") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnSinhGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnSinh;
        return true;
    }
    if (op == "InplaceSinh") {
        first = [&p](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceSinhGetWorkspaceSize(p.t("selfRef"), w, e); };
        second = aclnnInplaceSinh;
        return true;
    }
    if (op == "Cosh") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnCoshGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnCosh;
        return true;
    }
    if (op == "InplaceCosh") {
        first = [&p](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceCoshGetWorkspaceSize(p.t("selfRef"), w, e); };
        second = aclnnInplaceCosh;
        return true;
    }
    if (op == "Asinh") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnAsinhGetWorkspaceSize(p.t("input"), p.t("out"), w, e);
        };
        second = aclnnAsinh;
        return true;
    }
    if (op == "InplaceAsinh") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceAsinhGetWorkspaceSize(p.t("inputRef"), w, e);
        };
        second = aclnnInplaceAsinh;
        return true;
    }
    if (op == "Acosh") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnAcoshGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnAcosh;
        return true;
    }
    if (op == "InplaceAcosh") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceAcoshGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceAcosh;
        return true;
    }
    if (op == "Atanh") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnAtanhGetWorkspaceSize(p.t("input"), p.t("out"), w, e);
        };
        second = aclnnAtanh;
        return true;
    }
    if (op == "InplaceAtanh") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceAtanhGetWorkspaceSize(p.t("inputRef"), w, e);
        };
        second = aclnnInplaceAtanh;
        return true;
    }
    if (op == "Atan2") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnAtan2GetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnAtan2;
        return true;
    }
    if (op == "InplaceAtan2") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceAtan2GetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceAtan2;
        return true;
    }
    if (op == "Exp2") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnExp2GetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnExp2;
        return true;
    }
    if (op == "InplaceExp2") {
        first = [&p](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceExp2GetWorkspaceSize(p.t("selfRef"), w, e); };
        second = aclnnInplaceExp2;
        return true;
    }
    if (op == "Frac") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnFracGetWorkspaceSize(p.t("input"), p.t("out"), w, e);
        };
        second = aclnnFrac;
        return true;
    }
    if (op == "InplaceFrac") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceFracGetWorkspaceSize(p.t("inputRef"), w, e);
        };
        second = aclnnInplaceFrac;
        return true;
    }
    if (op == "LogAddExp") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnLogAddExpGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnLogAddExp;
        return true;
    }
    if (op == "LogAddExp2") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnLogAddExp2GetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnLogAddExp2;
        return true;
    }
    if (op == "PowTensorTensor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnPowTensorTensorGetWorkspaceSize(p.t("self"), p.t("exponent"), p.t("out"), w, e);
        };
        second = aclnnPowTensorTensor;
        return true;
    }
    if (op == "InplacePowTensorTensor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplacePowTensorTensorGetWorkspaceSize(p.t("self"), p.t("exponent"), w, e);
        };
        second = aclnnInplacePowTensorTensor;
        return true;
    }
    if (op == "BitwiseOrScalar") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnBitwiseOrScalarGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnBitwiseOrScalar;
        return true;
    }
    if (op == "InplaceBitwiseOrScalar") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceBitwiseOrScalarGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceBitwiseOrScalar;
        return true;
    }
    if (op == "BitwiseOrTensor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnBitwiseOrTensorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnBitwiseOrTensor;
        return true;
    }
    if (op == "InplaceBitwiseOrTensor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceBitwiseOrTensorGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceBitwiseOrTensor;
        return true;
    }
    if (op == "BitwiseXorScalar") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnBitwiseXorScalarGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnBitwiseXorScalar;
        return true;
    }
    if (op == "InplaceBitwiseXorScalar") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceBitwiseXorScalarGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceBitwiseXorScalar;
        return true;
    }
    if (op == "BitwiseXorTensor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnBitwiseXorTensorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnBitwiseXorTensor;
        return true;
    }
    if (op == "InplaceBitwiseXorTensor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceBitwiseXorTensorGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceBitwiseXorTensor;
        return true;
    }
    if (op == "LogicalXor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnLogicalXorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnLogicalXor;
        return true;
    }
    if (op == "FmodScalar") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnFmodScalarGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnFmodScalar;
        return true;
    }
    if (op == "InplaceFmodScalar") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceFmodScalarGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceFmodScalar;
        return true;
    }
    if (op == "FmodTensor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnFmodTensorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnFmodTensor;
        return true;
    }
    if (op == "InplaceFmodTensor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceFmodTensorGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceFmodTensor;
        return true;
    }
    if (op == "RemainderTensorTensor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnRemainderTensorTensorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnRemainderTensorTensor;
        return true;
    }
    if (op == "RemainderTensorScalar") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnRemainderTensorScalarGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnRemainderTensorScalar;
        return true;
    }
    if (op == "RemainderScalarTensor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnRemainderScalarTensorGetWorkspaceSize(p.s("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnRemainderScalarTensor;
        return true;
    }
    if (op == "InplaceRemainderTensorTensor") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceRemainderTensorTensorGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceRemainderTensorTensor;
        return true;
    }
    if (op == "InplaceRemainderTensorScalar") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceRemainderTensorScalarGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceRemainderTensorScalar;
        return true;
    }
    if (op == "FloorDivide") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnFloorDivideGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnFloorDivide;
        return true;
    }
    if (op == "FloorDivides") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnFloorDividesGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnFloorDivides;
        return true;
    }
    if (op == "InplaceFloorDivide") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceFloorDivideGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceFloorDivide;
        return true;
    }
    if (op == "InplaceFloorDivides") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceFloorDividesGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceFloorDivides;
        return true;
    }
    if (op == "SigmoidBackward") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnSigmoidBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("output"), p.t("gradInput"), w, e);
        };
        second = aclnnSigmoidBackward;
        return true;
    }
    if (op == "Softshrink") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnSoftshrinkGetWorkspaceSize(p.t("self"), p.s("lambd"), p.t("out"), w, e);
        };
        second = aclnnSoftshrink;
        return true;
    }
    if (op == "SoftshrinkBackward") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnSoftshrinkBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.s("lambda"),
                                                           p.t("gradInput"), w, e);
        };
        second = aclnnSoftshrinkBackward;
        return true;
    }
    if (op == "Hardshrink") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnHardshrinkGetWorkspaceSize(p.t("self"), p.s("lambd"), p.t("out"), w, e);
        };
        second = aclnnHardshrink;
        return true;
    }
    if (op == "HardshrinkBackward") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnHardshrinkBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.s("lambd"),
                                                           p.t("gradInput"), w, e);
        };
        second = aclnnHardshrinkBackward;
        return true;
    }
    return false;
}

}  // namespace
