// A non-owning, trivially copyable reference to a callable, for passing continuations down the
// evaluator without allocating. The referenced callable must outlive every call through the
// reference (the evaluator only passes references down the C++ stack, which guarantees this).
#ifndef WMAP_JQ_EVAL_FUNCTION_REF_H_
#define WMAP_JQ_EVAL_FUNCTION_REF_H_

#include <memory>
#include <type_traits>
#include <utility>

namespace wmap::jq::eval {

template <typename Signature>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F,
            typename = std::enable_if_t<!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
                                        std::is_invocable_r_v<R, F&, Args...>>>
  FunctionRef(F&& f)  // NOLINT(google-explicit-constructor)
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace wmap::jq::eval

#endif  // WMAP_JQ_EVAL_FUNCTION_REF_H_
