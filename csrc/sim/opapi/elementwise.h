// The element-wise primitive of the operator library: an operator is declared as an ElementwiseOp
// (its API name, kernel, FLOPs per element, accepted data types, promotion rule and a function of
// up to four numbers) and its entry points hand their arguments, as Operands, to
// prepare_elementwise (tensors broadcast to one result) or prepare_foreach (the same function over
// the tensors of lists, one kernel for the whole list, as CANN's multi-tensor kernels).
//
// Declaring it with OPAPI_ELEMENTWISE also registers it (opapi/registry.h).
//
// Rules, shared by every element-wise operator:
// - null: a NULL tensor, scalar, list, workspaceSize or executor is ACLNN_ERR_PARAM_NULLPTR;
// - a destroyed or foreign handle, a data type outside the operator's set, more than 8 dimensions,
//   inputs that do not broadcast, an output whose shape is not the broadcast shape, and a result
//   type the output cannot hold (a float result into an integer output, a number into bool) are
//   ACLNN_ERR_PARAM_INVALID;
// - promotion (torch's result_type): the tensors' types promote (a wider float wins, float16 with
//   bfloat16 gives float32, a float beats an integer, an integer beats bool, integers widen);
//   a scalar that takes part lifts only the category (a float scalar with integer tensors gives
//   float32); Promotion::ToFloat computes integer and bool inputs as float32; an operator without
//   tensor inputs (a fill) computes in its output's type;
// - launches: a Cast kernel per tensor input of another type than the working one, the
//   operator's kernel in the working type, a Cast to the output's type when it differs;
// - numbers: inputs are rounded to the working type, the function is evaluated in double and
//   rounded once to the working type (integers truncate toward zero, bool is value != 0), then
//   stored in the output's type.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>

#include "aclnn/acl_meta.h"
#include "opapi/registry.h"

namespace npusim::opapi {

enum class Promotion : uint8_t {
    Common,   // torch's result type of the inputs
    ToFloat,  // the same, with integer and bool results computed as float32
    Predicate,  // compared in the inputs' result type; the truth value (0 or 1) goes to an out of any type
};

using ElementFn = double (*)(double a, double b, double c, double d);

struct KernelChoice {
    Kernel kernel;
    double flops;  // per result element
};

struct ElementwiseOp {
    const char* api;
    OpFamily family;
    KernelChoice kernel;
    DTypeSet dtypes;  // of every tensor input and of the output
    Promotion promotion;
    ElementFn fn;  // of the inputs in order (unary operators read a; unused arguments are 0)

    OpInfo info() const { return {api, family, dtypes, kernel.kernel}; }
};

// Declares an element-wise operator named `var` and registers it.
#define OPAPI_ELEMENTWISE(var, ...)                        \
    const ::npusim::opapi::ElementwiseOp var{__VA_ARGS__}; \
    [[maybe_unused]] const bool var##_registered = ::npusim::opapi::register_op(var.info())

// One input of an element-wise operator.
struct Operand {
    enum class Kind : uint8_t {
        Tensor,       // a tensor, broadcast to the result
        List,         // an aclTensorList (prepare_foreach): one tensor per item
        Scalar,       // an aclScalar
        TensorValue,  // the first element of a tensor, read when the kernel runs (CANN's foreach V1 scalars)
        Constant,     // a number fixed by the operator (aclnnInplaceOne's 1)
    };
    Kind kind;
    const char* name;
    const void* handle = nullptr;  // aclTensor, aclTensorList or aclScalar
    double constant = 0;
    bool promotes = true;  // false: an attribute such as alpha, which never changes the working type
};

inline Operand tensor_in(const char* name, const aclTensor* t) { return {Operand::Kind::Tensor, name, t}; }
inline Operand list_in(const char* name, const aclTensorList* l) { return {Operand::Kind::List, name, l}; }
inline Operand scalar_in(const char* name, const aclScalar* s) { return {Operand::Kind::Scalar, name, s}; }
inline Operand attribute(const char* name, const aclScalar* s) { return {Operand::Kind::Scalar, name, s, 0, false}; }
inline Operand tensor_value(const char* name, const aclTensor* t) {
    return {Operand::Kind::TensorValue, name, t, 0, false};
}
inline Operand constant(double value) { return {Operand::Kind::Constant, "constant", nullptr, value, false}; }

// The first phase of an element-wise operator writing `out`; `kernel` replaces the declared one
// (aclnnAdd launches Axpy when alpha is not 1).
aclnnStatus prepare_elementwise(const ElementwiseOp& op, std::initializer_list<Operand> inputs, const aclTensor* out,
                                uint64_t* workspaceSize, aclOpExecutor** executor,
                                std::optional<KernelChoice> kernel = std::nullopt);
// The first phase of a foreach operator: the function over item i of every List input (equal
// shapes, no broadcasting) and the scalars, written to item i of `out`.
aclnnStatus prepare_foreach(const ElementwiseOp& op, std::initializer_list<Operand> inputs, const aclTensorList* out,
                            uint64_t* workspaceSize, aclOpExecutor** executor);

// self + weight * (end - self) as torch's CPU kernel computes it: from self when |weight| < 0.5,
// from end otherwise (exact at weight 0 and 1).
double lerp(double self, double end, double weight);

// The result type of two tensor types (torch's promote_types).
aclDataType promote_types(aclDataType a, aclDataType b);

}  // namespace npusim::opapi
